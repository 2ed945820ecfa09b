# Development settings, loaded with PLANNER_CONFIG=config/development.py.
# Anything here can also be set as an environment variable with the PLANNER_ prefix.
ENV = "development"
# BASE_URL = "http://127.0.0.1:5000"  # unset: links use the address the pages are opened on
# DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/planner"
# A local debugging SMTP server: python -m aiosmtpd -n -l 127.0.0.1:8025
# MAIL_SERVER = "127.0.0.1"
# MAIL_PORT = 8025
