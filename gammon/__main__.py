"""``python -m gammon``."""

from gammon.cli.main import app

app()
