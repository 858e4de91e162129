"""Polydam's cluster driver: self-play, endgame-table builds and matches spread over a Ray
cluster, each job a thin layer around the ``polydam`` program (see docs/cluster.md)."""
