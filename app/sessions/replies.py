"""The answer each client's last action got: a resent action is answered again, never replayed.

A client numbers its actions (``client_seq``, per account and seat). The session answers each
action once, with an ``ack``, an ``error`` or a ``grab_result``, and remembers the answer
here: the same ``client_seq`` sent again (after a reconnect, say) gets the same answer with
``duplicate: true``, an older one gets ``action/stale_seq``. The answers of a restarted match
are its log's acks (``Hub.rebuild``).
"""

from __future__ import annotations

from app.protocol.match import Answer
from app.races.claims import Decision
from app.sessions import wire
from app.sessions.commands import Submit

UNAVAILABLE = "server/unavailable"
RESTARTING = "server/restarting"

# Whose actions: (account id, seat). A guest's or a bot's account id is None.
Key = tuple[int | None, int]
Answers = dict[Key, tuple[int, Answer]]


def key_of(command: Submit) -> Key:
    return (command.peer.account_id, command.seat)


class Replies:
    """Answers actions and remembers each key's last answer (``answers``)."""

    def __init__(self, answers: Answers) -> None:
        self.answers = answers

    def answered_again(self, command: Submit) -> bool:
        """Answer a repeat of the key's last action with its answer (``duplicate``); True when
        the command was such a repeat."""
        previous = self.answers.get(key_of(command))
        if previous is None or command.client_seq != previous[0]:
            return False
        command.peer.send_text(wire.dumps({**previous[1], "duplicate": True}))
        return True

    def answered_before(self, command: Submit) -> bool:
        """A repeat (answered as ``answered_again`` does) or an action older than the key's
        last one (``action/stale_seq``): answered here, and True."""
        previous = self.answers.get(key_of(command))
        seq = command.client_seq
        if previous is None or seq > previous[0]:
            return False
        if seq == previous[0]:
            command.peer.send_text(wire.dumps({**previous[1], "duplicate": True}))
            return True
        reply = wire.error("action/stale_seq", f"client_seq {seq} is older than {previous[0]}")
        command.peer.send_text(wire.dumps({**reply, "client_seq": seq}))
        return True

    def answer(
        self,
        command: Submit,
        at_ms: int,
        code: str | None = None,
        message: str = "",
        *,
        version: int = 0,
    ) -> None:
        """The action's one answer, remembered: an ``ack`` of ``version`` (``code`` None), or
        an ``error``; a ``grab_result`` for a grab."""
        seq = command.client_seq
        reply: Answer
        if command.grab:
            reply = wire.grab_result(seq, command.action.get("cell"), code is None, at_ms, code)
        elif code is None:
            reply = wire.ack(seq, version)
        else:
            reply = wire.error(code, message, seq)
        self.answers[key_of(command)] = (seq, reply)
        command.peer.send_text(wire.dumps(reply))

    def acknowledge(self, command: Submit, at_ms: int, version: int) -> None:
        """The action is logged as ``version``: its ``ack`` (a won grab's ``grab_result``)."""
        self.answer(command, at_ms, version=version)

    def refuse_restarting(self, command: Submit) -> None:
        """This process is handing its matches over: ``server/restarting``, ``retry: true``
        (the action was not played; send it again once reconnected), remembered not."""
        message = "the server is restarting; your action was not played, send it again"
        reply = wire.error(RESTARTING, message, command.client_seq)
        command.peer.send_text(wire.dumps({**reply, "retry": True}))

    def refuse_while_down(self, command: Submit, held: bool, at_ms: int) -> None:
        """The database cannot be written: a new action is refused at once with
        ``server/unavailable`` and ``retry: true``, and not remembered (sent again once the
        database is back, it is played). A repeat of an action already answered gets its
        answer; a repeat of one ``held`` (staged, not yet written) waits for its ack."""
        if self.answered_again(command) or held:
            return
        seq = command.client_seq
        message = "the database is unavailable; your action was not played, send it again"
        reply: Answer
        if command.grab:
            reply = wire.grab_result(seq, command.action.get("cell"), False, at_ms, UNAVAILABLE)
        else:
            reply = wire.error(UNAVAILABLE, message, seq)
        command.peer.send_text(wire.dumps({**reply, "retry": True}))

    def grab_decided(self, decision: Decision, decided_at: int) -> None:
        """``grab_result`` to the connection that sent a decided grab (bots get none)."""
        claim = decision.claim
        if claim.client_seq is None or not isinstance(claim.token, tuple):
            return
        peer, key = claim.token
        reply = wire.grab_result(
            claim.client_seq, claim.cell, decision.won, decided_at, decision.code
        )
        reply["v"] = claim.v
        previous = self.answers.get(key)
        if previous is None or claim.client_seq >= previous[0]:
            self.answers[key] = (claim.client_seq, reply)
        peer.send_text(wire.dumps(reply))
