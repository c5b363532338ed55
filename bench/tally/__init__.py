"""Tally: the peer-benchmark game (a move claims a cell; seats move in turn); bench only."""
