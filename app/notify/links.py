"""The signed links of mails: verifying an address, and unsubscribing without logging in."""

from __future__ import annotations

from urllib.parse import urlencode

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from app.errors import AppError

VERIFY_SALT = "rampart/verify-email"
UNSUBSCRIBE_SALT = "rampart/unsubscribe"
VERIFY_TTL_S = 7 * 24 * 3600  # a verification link works for a week


class Links:
    """Makes and reads the tokens of mail links, signed with the server's secret (each kind
    with its own salt, so one kind of token is never taken for another)."""

    def __init__(self, secret: str, public_url: str) -> None:
        self.base = public_url.rstrip("/")
        self._verify = URLSafeTimedSerializer(secret, salt=VERIFY_SALT)
        self._unsubscribe = URLSafeTimedSerializer(secret, salt=UNSUBSCRIBE_SALT)

    def verify_url(self, account_id: int, address: str) -> str:
        token = self._verify.dumps({"account": account_id, "address": address})
        return f"{self.base}/api/accounts/email/verify?{urlencode({'token': token})}"

    def unsubscribe_url(self, account_id: int) -> str:
        token = self._unsubscribe.dumps({"account": account_id})
        return f"{self.base}/api/notify/unsubscribe?{urlencode({'token': token})}"

    def table_url(self, match_id: int) -> str:
        """The page where the player makes his move."""
        return f"{self.base}/table/{match_id}"

    def match_url(self, match_id: int) -> str:
        """The page of a finished match (its result and replay)."""
        return f"{self.base}/matches/{match_id}"

    def read_verify(self, token: str) -> tuple[int, str]:
        """The account and address a verification token names; ``email/bad_token`` (400) if
        forged or malformed, ``email/token_expired`` (400) after a week."""
        try:
            data = self._verify.loads(token, max_age=VERIFY_TTL_S)
        except SignatureExpired as error:
            raise AppError("email/token_expired", "this link has expired: ask again") from error
        except BadSignature as error:
            raise AppError("email/bad_token", "this link is not valid") from error
        return _account(data), str(data.get("address", ""))

    def read_unsubscribe(self, token: str) -> int:
        """The account an unsubscribe token names (it never expires); ``email/bad_token``
        (400) if forged or malformed."""
        try:
            data = self._unsubscribe.loads(token)
        except BadSignature as error:
            raise AppError("email/bad_token", "this link is not valid") from error
        return _account(data)


def _account(data: object) -> int:
    account = data.get("account") if isinstance(data, dict) else None
    if not isinstance(account, int) or isinstance(account, bool):
        raise AppError("email/bad_token", "this link is not valid")
    return account
