"""The mail settings of a request: the configured BASE_URL, or the address the request came in on."""

from __future__ import annotations

from collections import ChainMap

from flask import current_app, has_request_context, request

from planner.services.invites import MailSettings


def mail_settings() -> MailSettings:
    """``MailSettings`` from the app config. Without a configured BASE_URL, links in invites and feed URLs
    use the host and port the coordinator is browsing (so `planner serve --port 8000` gives working links);
    behind a proxy, set PLANNER_BASE_URL to the public address."""
    config = current_app.config
    if not config.get("BASE_URL") and has_request_context():
        config = ChainMap({"BASE_URL": request.host_url}, config)
    return MailSettings.from_mapping(config)
