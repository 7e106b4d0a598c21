"""Running a Swiss event: register, pair a round, report results, drop, end rounds.

One function per thing a TO does, in a module per use case: `events` (creating an event),
`entries` (registration, drop, undrop, remove), `rounds` (pairing, ending, manual edits),
`results` (reporting, correcting and undoing a table's result) and `topcut`. Each is one
transaction that first locks the tournament row, so two TOs at two phones are serialised. A
reported table becomes (or corrects) a league `Game`, so ratings and the league standings
follow. What differs between 1v1 matches and pods is asked of the event's format
(`tournaments.formats`); the pairing and standings are computed by the pure modules in
tournaments/domain from the stored history (`tournaments.selectors`). Errors are
`TournamentError`s (`tournaments.errors`) with a code and a message a TO can act on; nothing
is written then. Each result, correction, pairing edit and drop writes an audit entry (before
and after) in the same transaction, through `audit.services.log_action`.

Import from the module that defines a name (`from tournaments.services.rounds
import round_pair`): the package re-exports nothing.
"""
