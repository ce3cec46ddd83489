"""Texts the server sends, bounded, counted in the store: the request that texts can be sent a
thousand times, and the owner pays for every text.

- at most one text per game step and recipient (a replayed or concurrent request sends nothing);
- at most ``TEXTS_PER_NUMBER_HOUR`` texts an hour and ``TEXTS_PER_NUMBER_DAY`` a day to one
  number, and ``TEXTS_PER_DAY`` a day from the whole deployment (what a text costs the owner, at
  worst, whatever anyone sends);
- only to mobile numbers in the countries the deployment texts (``TEXT_COUNTRIES``).

Whatever is refused, the player can still send the link by hand (the page's Messages and
WhatsApp buttons). WhatsApp messages (for the players who chose them) count as texts here.
A text is counted before it is sent, so a refusal further down the list, or Twilio failing,
still counts: the limits err on the side of texting less. Numbers are kept in the store only as
keyed digests.

Notifications (Web Push, ``app/push.py``) follow the same rules with counters of their own
(``pushes#...``; a push costs nothing, so it never uses up a text): once per step and phone,
the same caps per phone (its subscription's endpoint, as a keyed digest) and per deployment.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, replace

from app import twilio_send
from app.delivery import Delivery
from app.engine.text import N_
from app.phone_numbers import not_texted
from app.store import Store

HOUR, DAY = 3600, 24 * 3600
ONCE_DAYS = 30  # how long "this step's text went out" is remembered (a game's entry: 30 to 180)


@dataclass(frozen=True)
class Limits:
    per_number_hour: int = 6
    per_number_day: int = 20
    per_day: int = 1000
    countries: frozenset[str] = frozenset({"US", "CA", "GB", "AR"})

    @classmethod
    def from_config(cls, config) -> "Limits":
        return cls(config["TEXTS_PER_NUMBER_HOUR"], config["TEXTS_PER_NUMBER_DAY"],
                   config["TEXTS_PER_DAY"], frozenset(config["TEXT_COUNTRIES"]))


class Outbox:
    def __init__(self, store: Store, phone_key: bytes, limits: Limits):
        self.store, self.limits = store, limits
        self.key = hmac.digest(phone_key, b"boardpass/outbox/number-digest", "sha256")

    def send(self, seed: bytes, step: int, phone: str, body: str, whatsapp: bool = False,
             lang: str = "en") -> Delivery:
        """Text ``body`` to ``phone`` for step ``step`` of the game ``seed``, unless a rule
        above says no (a ``Delivery`` that says why, for the player). Raises
        ``StoreUnavailable`` before anything is sent when the store can't count.

        ``whatsapp``: the player chose WhatsApp; it goes by WhatsApp when the deployment sends
        WhatsApp messages, else as a text, as for anyone (``lang``: the table's, which chooses
        the WhatsApp template). Either way it is the same message for the limits: one per step
        and number, counted against the same caps."""
        countries = self.limits.countries
        whatsapp = whatsapp and twilio_send.configured(countries=countries, whatsapp=True)
        if not twilio_send.configured(countries=countries, whatsapp=whatsapp):
            return Delivery("not-configured")
        refusal = not_texted(phone, countries)
        if refusal:
            return Delivery("failed", error=refusal)
        refused = self._counted("text", seed, step, self._number(phone))
        if refused:
            return refused
        return twilio_send.deliver(phone, body, countries=countries, whatsapp=whatsapp, lang=lang)

    def push(self, seed: bytes, step: int, who: str, send) -> Delivery:
        """Send a notification for step ``step`` of the game ``seed`` to the phone ``who`` (its
        subscription's digest) by calling ``send()`` (an ``app.push.Pushed``), unless a rule
        above says no. ``Delivery("sent" | "gone" | "failed" | "already-sent" | "limited",
        channel="push")``. Raises ``StoreUnavailable`` before anything is sent when the store
        can't count."""
        refused = self._counted("push", seed, step, who)
        if refused:
            return replace(refused, channel="push")
        pushed = send()
        error = None if pushed.status != "failed" else \
            N_("The notification didn't go out. Send the link yourself.")
        return Delivery(pushed.status, error=error, channel="push")

    def _counted(self, kind: str, seed: bytes, step: int, who: str) -> Delivery | None:
        """Count one ``kind`` ("text" or "push") to ``who`` for this step: None when every
        rule lets it go, else the ``Delivery`` that says why not."""
        now = self.store.clock()
        if not self.store.add(f"{kind}#{seed.hex()}#{step}#{who}", {}, now + ONCE_DAYS * DAY):
            return Delivery("already-sent")
        hour, day = int(now // HOUR), int(now // DAY)
        counters = f"{kind}es" if kind == "push" else f"{kind}s"
        texts = kind == "text"
        if not self.store.count(f"{counters}#{who}#{hour}", self.limits.per_number_hour,
                                (hour + 2) * HOUR):
            return Delivery("limited", error=N_(
                "This number has had all the texts we send it in an hour. Send the link "
                "yourself.") if texts else N_("This phone has had all the notifications we "
                                              "send it in an hour. Send the link yourself."))
        if not self.store.count(f"{counters}#{who}#day{day}", self.limits.per_number_day,
                                (day + 2) * DAY):
            return Delivery("limited", error=N_(
                "This number has had all the texts we send it in a day. Send the link "
                "yourself.") if texts else N_("This phone has had all the notifications we "
                                              "send it in a day. Send the link yourself."))
        if not self.store.count(f"{counters}#all#{day}", self.limits.per_day, (day + 2) * DAY):
            return Delivery("limited", error=N_(
                "We have sent all the texts we send in a day. Send the link yourself.")
                if texts else N_("We have sent all the notifications we send in a day. Send "
                                 "the link yourself."))
        return None

    def _number(self, phone: str) -> str:
        """A keyed digest of the number: the store never holds the number itself."""
        return hmac.new(self.key, phone.encode(), hashlib.sha256).hexdigest()[:24]

