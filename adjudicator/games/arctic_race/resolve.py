"""Steps -> results and the next state: set-up, turns (checked, then carried out) and the end of a round
(board sections 5.4, 7.2, 7.3, 7.8). A refused step changes nothing and the next step is tried on the same
position.
"""

from __future__ import annotations

from adjudicator.game import GameResult
from adjudicator.outcome import ILLEGAL, SUCCEEDS, OrderResult

from .board import RaceBoard
from .movement import Inputs, Refused, Resolution, where
from .orders import SetupPart, Step, Turn
from .scoring import standings
from .state import OVER, RACING, SETUP, RaceState, racer_name, setup_state, table_state, turn_order_from


# ---------------------------------------------------------------- set-up (R9, R10)


def set_up(board: RaceBoard, state: RaceState, parts: list[SetupPart]) -> tuple[RaceState, list[str]]:
    """The position after set-up: players clockwise, the start token's first holder, and the tiles: the whole
    shuffled order (`tiles`), the river as laid out on the table with the pile face down (`river`, A17), or
    the order `new --seed` shuffled (A18)."""
    if state.phase != SETUP:
        raise Refused("already-set-up", "the game is already set up")
    kinds: dict[str, list[str]] = {}
    for part in parts:
        if part.kind in kinds and part.kind not in ("tiles", "river"):  # a long list may be split over lines
            raise Refused("bad-input", f"the set-up gives `{part.kind}` twice")
        kinds.setdefault(part.kind, []).extend(part.values)
    if "tiles" in kinds and "river" in kinds:
        raise Refused("bad-input", "give either the whole tile order (`tiles ...`) or the river as laid out "
                                   "(`river ...`), not both")
    if state.tile_order and ("tiles" in kinds or "river" in kinds):
        raise Refused("bad-input", f"this game's tiles were shuffled by `new --seed {state.seed}`: the set-up gives "
                                   f"only `players ...` and `start ...`")
    if state.tile_order:
        kinds["tiles"] = list(state.tile_order)
    missing = [k for k in ("players", "start") if k not in kinds] + \
        ([] if "tiles" in kinds or "river" in kinds else ["tiles"])
    if missing:
        raise Refused("bad-input", f"the set-up needs `players ...` (clockwise), `start <colour>` and `tiles ...` "
                                   f"(all {len(board.tiles)}, shuffled, top first) or `river ...` (the "
                                   f"{len(board.slots)} tiles laid out, {board.slot_names[0]} first); missing: "
                                   f"{', '.join(missing)}")
    players, (start, *more) = kinds["players"], kinds["start"]
    if len(set(players)) != len(players):
        raise Refused("bad-input", f"a player is listed twice: {', '.join(players)}")
    if not board.min_players <= len(players) <= board.max_players:
        raise Refused("bad-input", f"{len(players)} players: the game is for {board.min_players} to "
                                   f"{board.max_players}")
    if more or start not in players:
        raise Refused("bad-input", f"the start token goes to one of the players ({', '.join(players)})")
    head = f"{len(players)} players: {', '.join(players)} (clockwise); {start} holds the start token"
    removed = board.tiles_removed[len(players)]
    if "river" in kinds:
        river = kinds["river"]
        twice = sorted({t for t in river if river.count(t) > 1})
        if len(river) != len(board.slots) or twice:
            raise Refused("bad-input", f"the river holds {len(board.slots)} different tiles "
                                       f"({', '.join(board.slot_names)}), not {len(river)}"
                                       + (f" (twice: {', '.join(twice)})" if twice else ""))
        new = table_state(board, players, start, river)
        new.history = list(state.history)
        return new, [head, f"{removed} tiles removed unseen",
                     f"river {' '.join(new.river)}; {new.pile_unknown} tiles face down in the pile"]
    order = kinds["tiles"]
    twice = sorted({t for t in order if order.count(t) > 1})
    absent = [t for t in board.tiles if t not in order]
    if twice or absent:
        problem = "; ".join(filter(None, [f"missing {', '.join(absent)}" if absent else "",
                                          f"twice {', '.join(twice)}" if twice else ""]))
        raise Refused("bad-input", f"the tile order must list all {len(board.tiles)} tiles once each, shuffled, top "
                                   f"first ({problem})")
    new = setup_state(board, players, start, order)
    new.history = list(state.history)
    seeded = f" (shuffled by seed {state.seed})" if state.tile_order else ""
    return new, [head, f"{removed} tiles removed unseen",  # (which: in the game file, never in a report)
                 f"river {' '.join(new.river)}; {len(new.pile)} tiles in the pile{seeded}"]


# ---------------------------------------------------------------- a turn (R11-R16)


def check_turn(board: RaceBoard, state: RaceState, turn: Turn) -> int | None:
    """Refuse a turn that breaks a rule (board section 7.8); returns the racer a move moves."""
    if state.phase == SETUP:
        raise Refused("not-set-up", "set the game up first: `players ...`, `start ...` and `tiles ...`")
    if state.phase == OVER:
        raise Refused("game-over", "the game is over")
    if turn.player not in state.players:
        raise Refused("bad-input", f"{turn.player} is not playing; the players are {', '.join(state.players)}")
    if turn.player != state.to_play:
        raise Refused("out-of-turn", f"it is {state.to_play}'s turn; this round's order is "
                                     f"{', '.join(state.turn_order)} (the start-token holder first, then clockwise)")
    card = board.cards.get(turn.card)
    if card is None:
        raise Refused("bad-input", f"there is no card {turn.card}; the cards are {board.card_order()}")
    if turn.card not in state.hands[turn.player]:
        raise Refused("card-not-in-hand", f"{turn.player}'s card {turn.card} was played and not yet collected; "
                                          f"in hand: {', '.join(map(str, state.hands[turn.player]))}")
    if turn.action not in card.actions:
        raise Refused("no-such-action", f"card {turn.card} ({card.name}) offers {' or '.join(card.actions)}, "
                                        f"not {turn.action}")
    if turn.action != "move":
        return None
    racer = turn.racer
    if racer is not None and racer not in board.racers:
        raise Refused("bad-input", f"there is no racer {racer}; racers are {board.racers}")
    if racer is not None and racer not in card.racers:
        raise Refused("wrong-racer", f"card {turn.card} moves racer {' or '.join(map(str, card.racers))}, "
                                     f"not {racer}")
    if racer is None:
        if len(card.racers) > 1:
            raise Refused("bad-input", f"card {turn.card} moves racer {' or '.join(map(str, card.racers))} "
                                       f"{card.steps} space{'s' if card.steps > 1 else ''}: name the racer, e.g. "
                                       f"'move racer {card.racers[-1]}'")
        racer = card.racers[0]
    if state.is_finished(turn.player, racer):
        other = f"must use its other action ({card.alternative})" if card.alternative else \
            f"must move another of racers {', '.join(map(str, card.racers))}"
        raise Refused("racer-finished", f"{turn.player} {racer} has finished: card {turn.card} {other} (R13)")
    position = state.racers[(turn.player, racer)]
    if turn.backward or (isinstance(turn.destination, int) and turn.destination <= position):
        raise Refused("backward", f"{turn.player} {racer} stands on {where(position)}: racers always move toward "
                                  f"the finish (R17)")
    if isinstance(turn.destination, int) and turn.destination > board.last_space:
        raise Refused("bad-input", f"the track ends at {board.last_space}; beyond it, write 'to finish'")
    return racer


def play_turn(board: RaceBoard, state: RaceState, turn: Turn) -> tuple[RaceState, list[str]]:
    """Carry out a legal turn on a copy: reveal the card, then its chosen action with every chain."""
    racer = check_turn(board, state, turn)
    new = state.copy()
    # The revealed card counts as played at once, so a collect this turn takes it back too (R12).
    new.hands[turn.player].remove(turn.card)
    new.played[turn.player].append(turn.card)
    inputs = Inputs(turn)
    res = Resolution(board, new, inputs)
    card = board.cards[turn.card]
    if turn.action == "move":
        assert racer is not None  # (check_turn returns the racer of every move)
        stop = res.move((turn.player, racer), card.steps)
        if turn.destination is not None and stop != turn.destination:
            raise Refused("wrong-destination", f"{turn.player} {racer} stops on {where(stop)}, not on "
                                               f"{where(turn.destination)}")
    else:
        res.events.append(f"{turn.player} chooses {turn.action}")
        res.act(turn.player, turn.action)
    unused = inputs.unused()
    if unused:
        raise Refused("bad-input", f"the turn never needed {', '.join(unused)}")
    order = new.turn_order
    index = order.index(turn.player)
    new.to_play = order[index + 1] if index + 1 < len(order) else None
    return new, [f"{turn.player} reveals card {turn.card} ({card.name})"] + res.events


# ---------------------------------------------------------------- the end of a round (R15, R22-R25)


def end_round(board: RaceBoard, state: RaceState) -> list[str]:
    """The fifth-card collection, the end check, and the next round's order (mutates the new state)."""
    events = []
    for player in state.players:
        if not state.hands[player]:
            state.hands[player] = board.card_order()
            state.played[player] = []
            events.append(f"{player} played their last card and takes back all {len(board.cards)} (R15)")
    home = [p for p in state.players if state.home_count(p) >= board.end_when_home]
    tiles = state.alternative_end()
    if not home and not tiles:
        state.round += 1
        assert state.start_token is not None  # (set when the race starts)
        state.turn_order = turn_order_from(state.players, state.start_token)
        state.to_play = state.turn_order[0]
        events.append(f"round {state.round} begins: {', '.join(state.turn_order)}")
        return events
    if tiles:  # racers left in the river go back to their players (R25)
        river = set(board.river_spaces())
        swept = [r for r, s in state.racers.items() if s in river]
        for racer in swept:
            state.racers[racer] = 0
        if swept:
            events.append(f"{', '.join(racer_name(r) for r in swept)} {'is' if len(swept) == 1 else 'are'} still "
                          f"in the river and go{'es' if len(swept) == 1 else ''} back to the start")
    state.phase, state.to_play = OVER, None
    state.end_reason = "both" if home and tiles else "three-home" if home else "tiles"
    why = " and ".join(filter(None, [
        f"{' and '.join(home)} {'has' if len(home) == 1 else 'have'} {board.end_when_home} racers home" if home else "",
        "the tiles ran out" if tiles else ""]))
    score = standings(board, state)
    points = ", ".join(f"{p} {n}" for p, n in score["points"].items())
    first = score["ranking"][0]
    winner = f"{' and '.join(first)} share first place" if isinstance(first, list) else f"{first} wins"
    events.append(f"the game is over ({why}): {points}; {winner}")
    return events


# ---------------------------------------------------------------- steps -> results


def _refused(player: str | None, text: str, line: int | None, refusal: Refused) -> OrderResult:
    return OrderResult(player, text, ILLEGAL, f"refused ({refusal.code}): {refusal.message}", line=line,
                       cause={"code": refusal.code})


def adjudicate(board: RaceBoard, state: RaceState, steps: list[Step]) -> GameResult:
    """Resolve the steps in order on copies of the state; refused steps change nothing."""
    current = state
    report: list[OrderResult] = []
    trace: list[str] = []
    setup = [s for s in steps if isinstance(s, SetupPart)]
    for step in steps:
        if isinstance(step, SetupPart):
            if step is not setup[0]:
                continue  # the set-up is resolved once, with all its parts
            text = "; ".join(p.text for p in setup)
            try:
                current, events = set_up(board, current, setup)
            except Refused as refusal:
                report.append(_refused(None, text, step.line, refusal))
                continue
            report.append(OrderResult(None, text, SUCCEEDS, "; ".join(events), line=step.line))
            trace += events
            continue
        try:
            current, events = play_turn(board, current, step)
        except Refused as refusal:
            report.append(_refused(step.player, step.text, step.line, refusal))
            trace.append(f"{step.player}'s turn is refused ({refusal.code}): {refusal.message}")
            continue
        report.append(OrderResult(step.player, step.text, SUCCEEDS, "; ".join(events), line=step.line,
                                  cause={"understood_as": step.describe()}))
        trace += events
        if current.to_play is None:  # the last turn of the round
            ended = current.round
            events = end_round(board, current)
            report.append(OrderResult(None, f"end of round {ended}", SUCCEEDS, "; ".join(events)))
            trace += [f"end of round {ended}: {e}" for e in events]
    if current is state:
        current = state.copy()
    return GameResult(report, current, trace, _summary(board, current))


def _summary(board: RaceBoard, state: RaceState) -> dict:
    if state.phase == SETUP:
        return {"next": "set-up: players ..., start ..., tiles ... (or river ...)" if not state.tile_order else
                "set-up: players ..., start ... (the tiles are shuffled)"}
    score = standings(board, state)
    summary: dict = {"points": score["points"], "ranking": score["ranking"]}
    if state.phase == RACING:
        summary["next"] = f"round {state.round}, {state.to_play} to play"
    else:
        summary["game_over"] = state.end_reason
    return summary

