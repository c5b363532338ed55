"""The Rampart server: REST, websockets, sessions, persistence."""

from engines.compiled import install_compiled_finder

# Before any app module is imported (``app.sessions.view_diff`` is compiled too): see
# ``engines.compiled``.
install_compiled_finder()
