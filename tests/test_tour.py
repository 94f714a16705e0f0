"""`python -m eagerflow`: the tour's text (timings stubbed: the table is measured elsewhere)."""
import pathlib

from eagerflow import _tour

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_tour_warns_about_noise_and_points_at_notebooks_and_docs(monkeypatch, capsys):
    monkeypatch.setattr(_tour, "timing_table", lambda: [("a + b, float32 scalars, 0-d", 1.0, 0.5, "us/op")])
    _tour.main()
    out = capsys.readouterr().out
    assert "a + b, float32 scalars, 0-d" in out and "0.50  us/op" in out
    assert "noisy" in out
    assert "notebooks/" in out and "docs/" in out
    for name in ("notebooks", "docs/api.md", "docs/architecture.md", "docs/performance.md"):
        assert (ROOT / name).exists()
