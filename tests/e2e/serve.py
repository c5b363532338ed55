"""``python -m tests.e2e.serve --port P``: the app with the browser client mounted, migrated
like ``python -m app`` (for e2e runs until create_app mounts the client itself)."""

from __future__ import annotations

import argparse

import uvicorn

from app.__main__ import migrate
from app.config import get_settings
from app.main import create_app
from app.web import mount_static


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    settings = get_settings()
    migrate(settings.database_url)
    app = create_app(settings)
    # Once the lead calls mount_static in create_app, mounting again would shadow nothing
    # but duplicate routes: mount only when the client is not served yet.
    if not any(getattr(route, "path", None) == "/static" for route in app.routes):
        mount_static(app)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
