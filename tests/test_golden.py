"""The engine behaves as the golden fingerprints say (tests/golden.py): seeded games of
every variant and option set, compiled playouts, duels and table logs are the same bytes
after a change of structure (issue 29)."""

from __future__ import annotations

import json

from golden import GOLDEN, fingerprints


def test_behaviour_matches_the_golden_fingerprints():
    expected = json.loads(GOLDEN.read_text())
    found = fingerprints()
    # A new variant or option set brings fingerprints the file does not hold yet (the
    # next `--write` adds them); every one it holds must still be found, and the same.
    assert not expected.keys() - found.keys(), "fingerprints gone: a variant was removed?"
    changed = sorted(name for name in expected if found[name] != expected[name])
    assert not changed, (f"behaviour changed in {changed}; if that is meant, run "
                         "`python tests/golden.py --write` and say so in the commit")
