"""Flask extensions, created unbound and attached in init_web()."""

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Please sign in to continue."
login_manager.login_message_category = "info"
# Only the routes that ask for a limit have one (sign-in); storage and limits come from the app's config.
limiter = Limiter(key_func=get_remote_address)
