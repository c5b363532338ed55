"""Pure rules engines, one package per game, behind the contract in ``engines.base``."""
