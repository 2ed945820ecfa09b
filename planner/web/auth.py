"""Sign in and out; the landing page sends each role to its home."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import UserMixin, current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField
from wtforms.validators import DataRequired, Regexp

from planner.services import users
from planner.web.dbsession import get_session
from planner.web.extensions import login_manager
from planner.web.roles import home_endpoint_for
from planner.web.throttle import login_limits
from planner.web.validators import MaxLength

bp = Blueprint("auth", __name__)


class LoginUser(UserMixin):
    """Flask-Login's view of a user; holds plain values so it outlives the request session."""

    def __init__(self, user) -> None:
        self.id = user.id
        self.email = user.email
        self.name = user.name
        self.roles = user.role_set
        self.timezone = user.timezone

    def has_role(self, role: str) -> bool:
        return role in self.roles


@login_manager.user_loader
def load_user(user_id: str):
    if not user_id.isdigit():
        return None
    user = users.get_user(get_session(), int(user_id))
    return LoginUser(user) if user is not None and user.active else None


class LoginForm(FlaskForm):
    # A shape check only: deliverability libraries refuse reserved domains such as the demo's .test.
    email = EmailField("Email", validators=[DataRequired(), MaxLength(254),
                                            Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an email address.")])
    password = PasswordField("Password", validators=[DataRequired(), MaxLength(200)])
    remember = BooleanField("Keep me signed in")


def safe_next(target: str | None) -> str | None:
    """``target`` when it is a path on this site, else None: an open redirect after login is a phishing tool.

    Browsers read ``/\\host`` as ``//host`` and drop tabs and newlines inside a URL, so a backslash, a
    control character or a space anywhere refuses the target, as does a second leading slash.
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


@bp.route("/")
def index():
    if not current_user.is_authenticated:
        return redirect(url_for("auth.login"))
    endpoint = home_endpoint_for(current_user)
    if endpoint is None:
        abort(403)
    return redirect(url_for(endpoint))


@bp.route("/login", methods=["GET", "POST"])
@login_limits
def login():
    if current_user.is_authenticated:
        return redirect(url_for("auth.index"))
    form = LoginForm()
    if form.validate_on_submit():
        user = users.authenticate(get_session(), form.email.data, form.password.data)
        if user is None:
            form.password.errors.append("That email and password do not match an active account.")
            return render_template("auth/login.html", form=form), 401
        login_user(LoginUser(user), remember=form.remember.data)
        return redirect(safe_next(request.args.get("next")) or url_for("auth.index"))
    return render_template("auth/login.html", form=form), (400 if form.errors else 200)


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    logout_user()
    flash("You are signed out.", "info")
    return redirect(url_for("auth.login"))


def too_many_attempts(exc):
    """The sign-in page again, with the limit's sentence, a 429 and when to retry."""
    form = LoginForm(formdata=None, data={"email": request.form.get("email", "")[:254]})
    form.password.errors = [exc.description]
    response = current_app.make_response((render_template("auth/login.html", form=form), 429))
    response.headers["Retry-After"] = str(exc.limit.limit.get_expiry())
    return response
