"""The pruning network: a small network that screens the plays inside a search, so that
the full network values only each roll's best few (gnubg's pruning nets)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon.agents import make_agent
from gammon.agents.search import PRUNE_LEAST, BoardSearch
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.nn import PRUNE, load_network, pruning_network, shipped_network
from gammon.nn.evaluator import NeuralEvaluator, PruningEvaluator, load_evaluator
from gammon.nn.kinds import sibling
from gammon.nn.network import Network
from gammon.training.teacher import TeacherSpec

BG = gammon.variant("backgammon")
runner = CliRunner()


def _boards(count: int, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Board rows of positions met in play (a quick game of random plays), and who rolls."""
    rng = np.random.default_rng(seed)
    rows, turns = [], []
    while len(rows) < count:
        state = BG.initial_state()
        while not state.is_terminal and len(rows) < count:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                state = state.apply(outcomes[rng.integers(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state = state.apply(legal[rng.integers(len(legal))])
            if not state.is_terminal:
                rows.append(np.frombuffer(state.position.kernel_row, np.int8)[:52])
                turns.append(state.position.turn)
    return np.stack(rows), np.array(turns, np.int64)


def _small_network(seed: int = 1) -> Network:
    network = Network.create(199, 8, 5, seed=seed, encoder="track", variant="backgammon",
                             name="backgammon", role=PRUNE)
    network.w1 *= 3.0  # weights of some size, so that boards are told apart
    return network


def test_keep_best_keeps_least_plus_log2_of_each_group_by_score():
    from gammon.kernels.search import keep_best

    sizes = [1, 5, 6, 7, 8, 30, 64]
    scores = np.concatenate([np.random.default_rng(s).permutation(n).astype(float)
                             for s, n in enumerate(sizes)])
    starts = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
    keep = np.empty(len(scores), np.bool_)
    keep_best(scores, starts, 5, keep)
    for start, n in zip(starts, sizes, strict=True):
        kept = keep[start:start + n]
        wanted = min(n, 5 + int(np.log2(n)))  # 30 plays: 9 kept; 64: 11
        assert kept.sum() == wanted
        # The kept are the best scored: every kept score above every dropped one.
        group = scores[start:start + n]
        if wanted < n:
            assert group[kept].min() > group[~kept].max()


def test_the_fused_pruning_evaluator_gives_the_encoded_networks_outputs():
    """The pruning evaluator never writes the inputs out; its outputs are the network's
    on the encoded inputs, to float32's rounding."""
    network = _small_network()
    boards, turns = _boards(400)
    fused = PruningEvaluator(BG, network).outputs(boards, turns)
    encoded = NeuralEvaluator(BG, network).outputs(boards, turns)
    assert np.allclose(fused, encoded, atol=2e-6)
    assert fused.std(axis=0).min() > 1e-3  # not a constant: the test could fail


def test_a_pruning_network_reads_the_raw_inputs_of_a_two_player_game():
    main = load_network(BG)  # the contact features: not a pruning network's inputs
    with pytest.raises(ValueError, match="raw inputs"):
        PruningEvaluator(BG, main)


class _Ranked:
    """The shipped evaluator with a chosen pruning evaluator (an attribute, as the
    search reads it)."""

    def __init__(self, evaluator: NeuralEvaluator, pruning: object) -> None:
        self._evaluator = evaluator
        self.pruning = pruning
        self.size = evaluator.size

    def __getattr__(self, name: str) -> object:
        return getattr(self._evaluator, name)


class _Reversed:
    """A pruning evaluator that ranks every play the wrong way round."""

    def __init__(self, evaluator: NeuralEvaluator) -> None:
        self.evaluator = evaluator

    def values(self, boards: np.ndarray, to_roll: object) -> np.ndarray:
        return -self.evaluator.values(boards, to_roll)


def test_a_pruned_search_values_each_rolls_kept_plays_in_full_and_drops_the_rest():
    full = load_evaluator(BG, prune=False)
    assert isinstance(full, NeuralEvaluator) and full.pruning is None
    boards, turns = _boards(6, seed=5)
    plain = BoardSearch(BG, full)
    # Screened by the full network itself, the best of each roll is always kept: the
    # search's values are the unpruned ones, two rolls deep.
    same = BoardSearch(BG, _Ranked(full, full))  # type: ignore[arg-type]
    for board, turn in zip(boards, turns, strict=True):
        ask = board[None, :]
        assert same.value(ask, int(turn), 2) == pytest.approx(plain.value(ask, int(turn), 2))
    # Screened the wrong way round, the kept plays are the worst: the roller's values
    # fall, and only PRUNE_LEAST + log2 of each roll are valued.
    wrong = BoardSearch(BG, _Ranked(full, _Reversed(full)))  # type: ignore[arg-type]
    board, turn = boards[0], int(turns[0])
    children, starts = wrong.expand(board[None, :], turn)
    kept = wrong.kept_leaf(children, starts, turn)
    sign = 1.0 if turn == 0 else -1.0
    values = plain.leaf(children, turn)
    ends = np.append(starts, len(children))
    for g in range(len(starts)):
        group = slice(ends[g], ends[g + 1])
        n = ends[g + 1] - ends[g]
        live = np.isfinite(kept[group])
        assert live.sum() == min(n, PRUNE_LEAST + int(np.log2(n)))
        assert np.allclose(kept[group][live], values[group][live])
        assert (sign * kept[group][~live] == -np.inf).all()
        if live.sum() < n:  # the worst were kept
            assert (sign * values[group][live]).max() <= (sign * values[group][~live]).min()
    assert sign * wrong.value(board[None, :], turn, 1)[0] < sign * plain.value(
        board[None, :], turn, 1)[0]


def test_the_pruning_network_is_found_beside_the_main_file_and_checked(tmp_path):
    main = tmp_path / "bg.npz"
    load_network(BG).save(main)
    assert pruning_network(BG, main) is None
    _small_network().save(sibling(main, PRUNE))
    evaluator = load_evaluator(BG, main)
    assert isinstance(evaluator, NeuralEvaluator)
    assert isinstance(evaluator.pruning, PruningEvaluator)
    assert load_evaluator(BG, main, prune=False).pruning is None  # type: ignore[union-attr]
    unmarked = _small_network()
    del unmarked.meta["role"]
    unmarked.save(sibling(main, PRUNE))
    with pytest.raises(InvalidOptionError, match="not a pruning network"):
        load_evaluator(BG, main)
    # Backgammon's ships beside its network; the bot's option turns it off.
    assert pruning_network(BG, shipped_network(BG)) is not None
    assert make_agent("neural:2", BG, 1).evaluator.pruning is not None  # type: ignore[attr-defined]
    assert make_agent("neural:2:prune=no", BG, 1).evaluator.pruning is None  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="prune is 'yes' or 'no'"):
        make_agent("neural:2:prune=maybe", BG, 1)


def test_the_neural_teacher_is_the_shipped_network_at_zero_plies():
    assert TeacherSpec.parse("neural") == TeacherSpec("neural", 0)
    with pytest.raises(InvalidOptionError, match="neural"):
        TeacherSpec.parse("neural:2")


def test_gammon_train_prune_teaches_a_small_raw_network_the_shipped_ones_values(tmp_path):
    main = tmp_path / "bg.npz"
    load_network(BG).save(main)
    out = sibling(main, PRUNE)
    result = runner.invoke(app, ["train", "backgammon", "--prune", "--hidden", "4",
                                 "--games", "4", "--epochs", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    network = Network.load(out)
    teacher = network.meta["teacher"]
    assert network.meta["role"] == PRUNE and network.meta["encoder"] == "track"
    assert network.hidden == 4 and teacher["teacher"] == "neural"
    assert teacher["epochs_done"] == 2 and teacher["positions"] > 100
    assert not teacher["curve"]  # no games of a pruning network alone
    with np.load(out.with_suffix(".data.npz")) as data:
        boards, turns, labels = data["boards"], data["turns"], data["labels"]
    shipped = load_evaluator(BG, prune=False)
    assert isinstance(shipped, NeuralEvaluator)
    assert np.allclose(labels, shipped.outputs(boards, turns.astype(np.int64)), atol=1e-6)
    assert isinstance(load_evaluator(BG, main).pruning,  # type: ignore[union-attr]
                      PruningEvaluator)
    for bad in (["--contact"], ["--kind", "race"], ["--teacher", "gnubg"]):
        refused = runner.invoke(app, ["train", "backgammon", "--prune", *bad, "--games", "1",
                                      "--out", str(tmp_path / "x.npz")])
        assert refused.exit_code != 0 and "--prune trains a pruning network" in refused.output


def test_a_pruning_network_is_refused_where_the_board_search_does_not_run(tmp_path):
    for variant in ("plakoto", "multi-gam", "acey-deucey"):  # pins, four seats, own turns
        refused = runner.invoke(app, ["train", variant, "--prune", "--games", "1",
                                      "--out", str(tmp_path / "x.npz")])
        assert refused.exit_code != 0
        assert "a pruning network screens the plays of the board search" in refused.output
        assert not (tmp_path / "x.data.npz").exists()  # refused before any game
