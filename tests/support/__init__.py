"""Test generators: random legal play and record corruptions (not part of the product)."""
