"""The signed-in user's own settings: display name, time zone, password."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField
from wtforms.validators import DataRequired

from planner.core.errors import ValidationFailed
from planner.core.timezones import known_timezones
from planner.services import users
from planner.web.dbsession import get_session
from planner.web.validators import MaxLength

bp = Blueprint("account", __name__, url_prefix="/account")


class PreferencesForm(FlaskForm):
    name = StringField("Display name", validators=[DataRequired(), MaxLength(120)])
    timezone = SelectField("Time zone", description="Every time on every page is shown in this zone.")


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired()])
    new = PasswordField("New password", validators=[DataRequired(), MaxLength(200, min=8)])


def _forms():
    preferences = PreferencesForm(prefix="prefs", data={"name": current_user.name, "timezone": current_user.timezone})
    preferences.timezone.choices = [(z, z.replace("_", " ")) for z in known_timezones()]
    return preferences, PasswordForm(prefix="pw")


@bp.route("/", methods=["GET"])
@login_required
def settings():
    preferences, password = _forms()
    return render_template("auth/account.html", preferences=preferences, password=password)


@bp.route("/preferences", methods=["POST"])
@login_required
def preferences_save():
    preferences, password = _forms()
    if preferences.validate_on_submit():
        try:
            users.update_preferences(get_session(), current_user.id, name=preferences.name.data,
                                     timezone=preferences.timezone.data)
        except ValidationFailed as exc:
            preferences.timezone.errors.append(str(exc))
        else:
            flash(f"Saved. Times are now shown in {preferences.timezone.data}.", "success")
            return redirect(url_for(".settings"))
    return render_template("auth/account.html", preferences=preferences, password=password), 400


@bp.route("/password", methods=["POST"])
@login_required
def password_save():
    preferences, password = _forms()
    if password.validate_on_submit():
        try:
            users.change_password(get_session(), current_user.id, current=password.current.data,
                                  new=password.new.data)
        except ValidationFailed as exc:
            password.current.errors.append(str(exc))
        else:
            flash("Your password was changed.", "success")
            return redirect(url_for(".settings"))
    return render_template("auth/account.html", preferences=preferences, password=password), 400
