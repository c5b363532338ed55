"""The clients' tests run against the same per-module server as the app's tests."""

from tests.app.conftest import shared_server

__all__ = ["shared_server"]
