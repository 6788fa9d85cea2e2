"""Commit–reveal receipts for hidden rolls (DESIGN.md decision 4). Pure, no I/O.

receipt = hex SHA-256 of UTF-8 ``salt + "|" + canonical_json(content)``. The group sees the
receipt at once; after the reveal, anyone holding content and salt can check it with
``printf %s '<receipt_payload>' | sha256sum``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets


def canonical_json(content: object) -> str:
    """One fixed text per value: sorted keys, no spaces, UTF-8 characters kept as they are."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def new_salt() -> str:
    """128 random bits as 32 hex characters."""
    return secrets.token_hex(16)


def receipt_payload(content: object, salt: str) -> str:
    """The exact string that is hashed."""
    return f"{salt}|{canonical_json(content)}"


def make_receipt(content: object, salt: str) -> str:
    return hashlib.sha256(receipt_payload(content, salt).encode("utf-8")).hexdigest()


CODE_LENGTH = 12  # hex characters of the receipt shown in the chat (48 bits)


def short_code(receipt: str) -> str:
    """The receipt's first 12 hex characters in groups of four: ``3f2a-9c1b-77d0``.

    What the group reads and compares; the verification page shows the whole digest."""
    head = receipt[:CODE_LENGTH].lower()
    return "-".join(head[i : i + 4] for i in range(0, len(head), 4))


def verify(receipt: str, content: object, salt: str) -> bool:
    """True when `receipt` is the receipt of `content` under `salt` (hex case ignored)."""
    if not isinstance(receipt, str) or not receipt.isascii():
        return False
    return hmac.compare_digest(receipt.lower(), make_receipt(content, salt))
