"""The engine behaves as the golden fingerprints say (tests/golden.py): seeded games of
every variant and option set, compiled playouts, duels and table logs are the same bytes
after a change of structure (issue 29)."""

from __future__ import annotations

import json

from golden import GOLDEN, fingerprints


def test_behaviour_matches_the_golden_fingerprints():
    expected = json.loads(GOLDEN.read_text())
    found = fingerprints()
    assert found.keys() == expected.keys()
    changed = sorted(name for name in found if found[name] != expected[name])
    assert not changed, (f"behaviour changed in {changed}; if that is meant, run "
                         "`python tests/golden.py --write` and say so in the commit")
