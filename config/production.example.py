# Production settings: copy, fill in, and point PLANNER_CONFIG at the copy.
# Secrets belong in the environment (PLANNER_SECRET_KEY, PLANNER_DATABASE_URL, PLANNER_MAIL_PASSWORD,
# PLANNER_CALENDAR_SECRET_KEY from `planner calendars keygen`).
ENV = "production"
BASE_URL = "https://planner.example.com"
UID_DOMAIN = "planner.example.com"
MAIL_ORGANIZER_EMAIL = "recruiting@example.com"  # From and ORGANIZER of every invite; SPF/DKIM aligned
MAIL_ORGANIZER_NAME = "Example Recruiting"
MAIL_SERVER = "smtp.example.com"
MAIL_PORT = 587
MAIL_USE_TLS = True
SESSION_COOKIE_SECURE = True
REMEMBER_COOKIE_SECURE = True
PREFERRED_URL_SCHEME = "https"
# The same mailbox receives the calendar answers `planner inbox` reads (secrets in the environment).
IMAP_SERVER = "imap.example.com"
IMAP_PORT = 993
IMAP_USE_SSL = True
IMAP_MAILBOX = "INBOX"
CALDAV_HORIZON_DAYS = 60  # busy time read from interviewers' CalDAV calendars, days ahead
CALDAV_TIMEOUT = 10  # seconds
