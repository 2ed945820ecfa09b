"""Entry point for gunicorn: `gunicorn planner.wsgi:app`."""

import sys

from planner import create_app
from planner.core.errors import PlannerError

try:
    app = create_app()
except PlannerError as exc:
    # A deployment mistake deserves one sentence, not a traceback in the server log.
    print(f"Error: {exc}", file=sys.stderr)
    sys.exit(1)
