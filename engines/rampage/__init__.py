"""Castle Rampage: a two-player duel of hidden Gate and Castle stacks (engine id "rampage")."""
