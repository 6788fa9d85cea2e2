from __future__ import annotations

import hashlib
import re
import subprocess

from engine.receipt import (
    canonical_json,
    make_receipt,
    new_salt,
    receipt_payload,
    short_code,
    verify,
)

CONTENT = {"roll_id": 7, "args": "2к6+1 удар", "result": {"total": 9, "faces": [4, 4]}, "b": None}


def test_canonical_json_is_sorted_compact_and_keeps_cyrillic() -> None:
    text = canonical_json(CONTENT)
    assert text == ('{"args":"2к6+1 удар","b":null,"result":{"faces":[4,4],"total":9},"roll_id":7}')
    reordered = dict(reversed(list(CONTENT.items())))
    assert canonical_json(reordered) == text


def test_new_salt_is_32_hex_chars_and_random() -> None:
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in salts)


def test_receipt_matches_an_independent_sha256() -> None:
    salt = "00112233445566778899aabbccddeeff"
    payload = receipt_payload(CONTENT, salt)
    assert payload.startswith(salt + "|{")
    expected = hashlib.sha256(
        (
            salt + '|{"args":"2к6+1 удар","b":null,"result":{"faces":[4,4],"total":9},"roll_id":7}'
        ).encode("utf-8")
    ).hexdigest()
    assert make_receipt(CONTENT, salt) == expected
    assert re.fullmatch(r"[0-9a-f]{64}", expected)


def test_receipt_payload_checks_with_sha256sum() -> None:
    salt = new_salt()
    sha256sum = subprocess.run(
        ["sha256sum"], input=receipt_payload(CONTENT, salt).encode("utf-8"), capture_output=True
    )
    assert sha256sum.stdout.split()[0].decode() == make_receipt(CONTENT, salt)


def test_verify_accepts_the_original_and_rejects_any_change() -> None:
    salt = new_salt()
    receipt = make_receipt(CONTENT, salt)
    assert verify(receipt, CONTENT, salt)
    assert verify(receipt.upper(), CONTENT, salt)
    assert not verify(receipt, {**CONTENT, "roll_id": 8}, salt)
    assert not verify(receipt, CONTENT, new_salt())
    assert not verify(receipt[:-1] + ("0" if receipt[-1] != "0" else "1"), CONTENT, salt)
    assert not verify("ж" * 64, CONTENT, salt)


def test_short_code_is_the_receipts_beginning_in_groups_of_four() -> None:
    digest = make_receipt({"a": 1}, "00" * 16)
    code = short_code(digest)
    assert code == f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"
    assert short_code(digest.upper()) == code
