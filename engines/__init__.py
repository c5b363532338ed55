"""Pure rules engines, one package per game, behind the contract in ``engines.base``."""

from engines.compiled import install_compiled_finder

# Before any engine module is imported: the mypyc build of the hot modules, when it matches
# their sources (``engines.compiled``; ``RAMPART_PURE_PYTHON=1`` ignores it).
install_compiled_finder()
