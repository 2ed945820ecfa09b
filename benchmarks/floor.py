"""The framework's floor: the smallest Flask page, served by gunicorn like the app.

``gunicorn benchmarks.floor:app``
"""

from flask import Flask

app = Flask(__name__)


@app.route("/")
def hello():
    return "<!doctype html><title>floor</title><p>Hello</p>"
