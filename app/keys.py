"""The server's secrets: link signing keys, the dice key, the phone encryption key and the
Web Push (VAPID) key.

Signing keys may rotate (sign with the newest, verify with any). The dice key never rotates: every
game's dice derive from it, so changing it would change every game in flight. With no
configuration the app runs on development keys kept in ``instance/dev-keys.json`` so local links
survive restarts (and so do the browsers' push subscriptions, made for its VAPID key).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

_PHONE_LABEL = b"boardpass/phone-key"
_DEFAULT_INSTANCE = Path(__file__).resolve().parent.parent / "instance"


def _phone_key(material: bytes) -> bytes:
    """A 64-byte AES-256-SIV key from key material of any length."""
    return hmac.digest(material, _PHONE_LABEL, "sha512")


@dataclass(frozen=True)
class Keys:
    """All server keys; ``repr`` hides them so they never reach a log or a traceback."""

    signing: tuple[bytes, ...] = field(repr=False)  # oldest first; the last one signs
    dice: bytes = field(repr=False)
    phone: bytes = field(repr=False)  # AES-SIV key: 32, 48 or 64 bytes
    # The VAPID key that signs Web Push requests (app/push.py): the P-256 private key's 32 bytes,
    # base64url; empty: no notifications.
    vapid: str = field(default="", repr=False)

    def __post_init__(self):
        object.__setattr__(self, "signing", tuple(self.signing))
        if not self.signing or not all(self.signing):
            raise ValueError("at least one non-empty signing key is needed")
        if not self.dice:
            raise ValueError("the dice key must not be empty")
        if len(self.phone) not in (32, 48, 64):
            raise ValueError("the phone key must be 32, 48 or 64 bytes (AES-SIV)")

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] = os.environ, instance_dir: str | Path | None = None
    ) -> Keys:
        """Read SIGNING_KEYS (comma-separated, newest last), DICE_KEY, optional PHONE_KEY and
        optional VAPID_PRIVATE_KEY.

        A missing SIGNING_KEYS or DICE_KEY falls back to the development keys, which include a
        VAPID key. PHONE_KEY, when given, is key material of any length (like DICE_KEY when it
        is not), so it goes through the same derivation to fit AES-SIV. A deployment (its
        signing and dice keys set) without VAPID_PRIVATE_KEY sends no notifications.
        """
        signing = [k.strip() for k in environ.get("SIGNING_KEYS", "").split(",") if k.strip()]
        dice = environ.get("DICE_KEY", "").strip()
        vapid = environ.get("VAPID_PRIVATE_KEY", "").strip()
        if not signing or not dice:
            dev = _dev_keys(Path(instance_dir) if instance_dir else _DEFAULT_INSTANCE)
            signing = signing or [dev["signing"]]
            dice = dice or dev["dice"]
            vapid = vapid or dev.get("vapid", "")
        phone = environ.get("PHONE_KEY", "").strip() or dice
        return cls(
            signing=tuple(k.encode() for k in signing),
            dice=dice.encode(),
            phone=_phone_key(phone.encode()),
            vapid=vapid,
        )

    @classmethod
    def for_tests(cls, label: str = "test") -> Keys:
        """Fixed keys derived from ``label``, the same everywhere: for tests and golden links."""
        def derive(purpose: str) -> bytes:
            return hashlib.sha256(f"boardpass/test-keys/{label}/{purpose}".encode()).digest()

        dice = derive("dice")
        return cls(signing=(derive("signing"),), dice=dice, phone=_phone_key(dice),
                   vapid=_b64(_p256_scalar(derive("vapid"))))


def _dev_keys(instance_dir: Path) -> dict[str, str]:
    """Development keys stored in the instance folder, or ephemeral ones if it can't be used.
    The VAPID key is derived from the dice key (``_dev_vapid``), never written: every process
    reading the same file has the same one."""
    path = instance_dir / "dev-keys.json"
    try:
        if not path.exists():
            _create_dev_keys(path)
        stored = json.loads(path.read_text("utf-8"))
        keys = {name: stored.get(name) for name in ("signing", "dice")}
        if not all(isinstance(key, str) and key for key in keys.values()):
            raise ValueError("expected non-empty 'signing' and 'dice' strings")
        return keys | {"vapid": _dev_vapid(keys["dice"])}
    except (OSError, ValueError, AttributeError) as exc:
        warnings.warn(
            f"cannot keep development keys in {path} ({exc}); using ephemeral keys, so links "
            "made now stop working when the app restarts",
            RuntimeWarning,
            stacklevel=3,
        )
        keys = _new_dev_keys()
        return keys | {"vapid": _dev_vapid(keys["dice"])}


def _new_dev_keys() -> dict[str, str]:
    return {"signing": secrets.token_urlsafe(32), "dice": secrets.token_urlsafe(32)}


def _dev_vapid(dice: str) -> str:
    """The development VAPID key of a development dice key."""
    return _b64(_p256_scalar(hashlib.sha256(f"boardpass/dev-vapid/{dice}".encode()).digest()))


# The order of P-256's group: a private key is a number from 1 to N - 1.
_P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def _p256_scalar(material: bytes) -> bytes:
    """A valid P-256 private key (32 bytes, big-endian) from 32 bytes of key material."""
    return (int.from_bytes(material, "big") % (_P256_N - 1) + 1).to_bytes(32, "big")


def _b64(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_key() -> str:
    """A new VAPID private key, as VAPID_PRIVATE_KEY takes it (``python -m app vapid-key``
    prints one for a deployment)."""
    return _b64(_p256_scalar(secrets.token_bytes(32)))


def _create_dev_keys(path: Path) -> None:
    """Write fresh keys atomically, never replacing keys another process has just written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".dev-keys-")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(_new_dev_keys(), f)
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
