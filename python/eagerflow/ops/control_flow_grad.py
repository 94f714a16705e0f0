"""Gradients of If/StatelessIf and While/StatelessWhile (filled in below)."""
