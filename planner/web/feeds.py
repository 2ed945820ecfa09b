"""The public calendar feed: /feeds/<token>.ics, no login, nothing else shown to anybody."""

from __future__ import annotations

from flask import Blueprint, Response, request

from planner.db import utcnow
from planner.services.feeds import feed_for_token
from planner.web.dbsession import get_session
from planner.web.mail_settings import mail_settings
from planner.web.pagecache import cached_page

bp = Blueprint("feeds", __name__, url_prefix="/feeds")

_PRIVATE = {"Cache-Control": "private, no-cache", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer"}


@bp.route("/<token>.ics", methods=["GET", "HEAD"])
@cached_page
def feed_ics(token: str):
    feed = feed_for_token(get_session(), token, settings=mail_settings(), now=utcnow())
    if feed is None:
        # An empty 404: no page, no hint whether such a token ever existed.
        return Response(b"", status=404, mimetype="text/plain")
    etag = f'"{feed.etag}"'
    headers = {"ETag": etag, **_PRIVATE}
    if request.if_none_match.contains_weak(feed.etag):
        return Response(status=304, headers=headers)
    return Response(
        feed.body,
        headers={**headers, "Content-Disposition": 'inline; filename="interviews.ics"'},
        content_type="text/calendar; charset=utf-8",
    )
