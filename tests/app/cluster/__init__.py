"""Tests of several server processes sharing one database and one Redis."""
