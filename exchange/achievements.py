"""The document's achievements of a league (achievements.models): its scoring, each
achievement with the players' claims and the organizers' awards, checked on import as the
forms and the players' taps are. The leaderboard is not carried: it is computed on read.
"""

from django.utils.translation import gettext as _

from achievements.domain.scoring import (
    AchievementError,
    Held,
    SeasonDates,
    achievement_check,
    frequency_conflict,
)
from achievements.domain.scoring import Scoring as ScoringRules
from achievements.models import Achievement, Claim, Scoring
from exchange.document import Importer, Node, build, fields
from leagues.models import GameResult, League

ACHIEVEMENT_FIELDS = ("name", "description", "points", "per", "active", "created_at")
SCORING_FIELDS = ("per_game", "placings")
CLAIM_FIELDS = ("night", "source", "status", "created_at", "answered_at", "decided_at")


def achievements_export(league: League, game_keys: dict[int, int]) -> dict:
    scoring = Scoring.objects.filter(league=league).first()
    claims: dict[int, list[dict]] = {}
    for claim in (
        Claim.objects.filter(achievement__league=league)
        .select_related("player", "answered_by")
        .order_by("night", "created_at", "id")
    ):
        claims.setdefault(claim.achievement_id, []).append(
            {
                "player": claim.player.name,
                "game": game_keys[claim.game_id] if claim.game_id else None,
                **fields(claim, CLAIM_FIELDS),
                "answered_by": claim.answered_by.name if claim.answered_by else None,
            }
        )
    return {
        "achievement_scoring": fields(scoring, SCORING_FIELDS) if scoring else None,
        "achievements": [
            {**fields(a, ACHIEVEMENT_FIELDS), "claims": claims.get(a.pk, [])}
            for a in Achievement.objects.filter(league=league).order_by("created_at", "id")
        ],
    }


def achievements_import(state: Importer, league_node: Node, league: League, games) -> None:
    """The league's achievement scoring, its achievements and their claims (documents
    written before achievements have none), checked as the organizers' forms and the
    players' taps are: a claim's player and its answerer played its game, on its day, and
    no one holds an achievement more often than its rule lets them."""
    scoring = league_node.get("achievement_scoring", None)
    if scoring is not None:
        node = league_node.obj("achievement_scoring")
        row = build(Scoring, node, SCORING_FIELDS, league=league)
        placings = row.placings
        if not isinstance(placings, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in placings
        ):
            raise node.error(_("must be a list of whole numbers"), "placings")
        try:
            ScoringRules(per_game=row.per_game, placings=tuple(placings))
        except AchievementError as error:
            raise node.error(error.message, error.field) from None
        row.save()
    if "achievements" not in league_node.value:
        return
    seasons = [
        SeasonDates(pk, start, end)
        for pk, start, end in league.seasons.values_list("pk", "starts_on", "ends_on")
    ]
    pods: dict[int, set[int]] = {}
    for game_id, player_id in GameResult.objects.filter(game__league=league).values_list(
        "game_id", "player_id"
    ):
        pods.setdefault(game_id, set()).add(player_id)
    names: dict[str, str] = {}
    for node in league_node.items("achievements"):
        achievement = build(Achievement, node, ACHIEVEMENT_FIELDS, league=league)
        try:
            achievement_check(name=achievement.name, points=achievement.points, per=achievement.per)
        except AchievementError as error:
            raise node.error(error.message, error.field) from None
        folded = achievement.name.strip().lower()
        if folded in names:
            raise node.error(
                _('"%(name)s" is already %(names)s')
                % {"name": achievement.name, "names": names[folded]},
                "name",
            )
        names[folded] = node.path
        achievement.save()
        _claims(state, node, achievement, games, pods, seasons)


def _claims(
    state: Importer, achievement_node: Node, achievement: Achievement, games, pods, seasons
):
    rows: list[Claim] = []
    held: list[Held] = []
    paths: dict[int, str] = {}  # a held claim's number here: its path
    for number, node in enumerate(achievement_node.items("claims"), start=1):
        player = state.player(node)
        claim = build(Claim, node, CLAIM_FIELDS, achievement=achievement, player=player)
        key = node.get("game")
        if key is not None:
            if not isinstance(key, int) or isinstance(key, bool) or key not in games:
                raise node.error(
                    _("no game with the key %(key)s in this league") % {"key": repr(key)}, "game"
                )
            claim.game = games[key][0]
            if player.pk not in pods.get(claim.game.pk, ()):
                raise node.error(
                    _('"%(name)s" did not play the game %(key)s')
                    % {"name": player.name, "key": key},
                    "player",
                )
            if claim.night != claim.game.played_on:
                raise node.error(
                    f"must be the day of the game {key} ({claim.game.played_on})", "night"
                )
        if node.get("answered_by") is not None:
            podmate = state.player(node, "answered_by")
            if podmate.pk == player.pk:
                raise node.error(
                    "a claim is confirmed or declined by a podmate, not by its own player",
                    "answered_by",
                )
            if claim.game is not None and podmate.pk not in pods.get(claim.game.pk, ()):
                raise node.error(
                    _('"%(name)s" did not play the game %(key)s')
                    % {"name": podmate.name, "key": key},
                    "answered_by",
                )
            claim.answered_by = podmate
        if claim.status in Claim.HELD:
            new = Held(achievement.pk, player.pk, claim.game_id, claim.night, number)
            found = frequency_conflict(achievement.per, new, held, seasons)
            if found is not None:
                same_game = found.game is not None and found.game == claim.game_id
                raise node.error(
                    f"{achievement.name} is earned {achievement.rule}: {player.name} "
                    f"already holds it at {paths[found.claim]}",
                    "game" if same_game else "night",
                )
            held.append(new)
            paths[number] = node.path
        rows.append(claim)
    Claim.objects.bulk_create(rows)
