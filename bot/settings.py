"""Configuration from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_BOT_API_URL = "https://api.telegram.org"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr | None = None
    database_url: str = "sqlite://data/kosti.sqlite3"
    bot_api_url: str = DEFAULT_BOT_API_URL
    redis_url: str | None = None  # several workers share live pushes and handled updates
    # seconds after which a step a worker committed and did not deliver is another's to deliver
    outbox_lease: float = Field(default=30.0, gt=0)
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    mini_app_name: str = "app"  # the Mini App's short name in @BotFather (/newapp)
    default_locale: str = "ru"
    log_level: str = "INFO"
    # "text" (one line for people) or "json" (one object per line, with the update's id, chat
    # and kind: for a host that queries its logs)
    log_format: str = "text"
    # set: GET /metrics serves Prometheus' text format to a scraper sending
    # "Authorization: Bearer <it>" (webapp/metrics.py); unset: no /metrics
    metrics_token: SecretStr | None = None
    # at SIGTERM: seconds to wait for the updates being handled (and what they send)
    shutdown_timeout: float = 25.0
    # updates handled at once; beyond it the webhook answers 503 and Telegram delivers again,
    # polling reads no further (webapp/webhook.py)
    max_updates_in_flight: int = Field(default=64, ge=1)
    # Telegram's limits on what the bot sends (bot/middlewares/flood.py); 0 turns one off
    flood_per_second: int = Field(default=30, ge=0)
    flood_group_per_minute: int = Field(default=20, ge=0)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("LOG_LEVEL: DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("log_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        form = value.strip().lower()
        if form not in ("text", "json"):
            raise ValueError("LOG_FORMAT: text or json")
        return form

    @field_validator("default_locale")
    @classmethod
    def _known_locale(cls, value: str) -> str:
        locale = value.strip().lower()
        if locale not in ("ru", "en"):
            raise ValueError("DEFAULT_LOCALE: ru or en")
        return locale

    @property
    def token(self) -> str | None:
        value = self.bot_token.get_secret_value().strip() if self.bot_token else ""
        return value or None

    def webhook_secret_value(self) -> str:
        """WEBHOOK_SECRET, or one derived from the token so that every worker agrees on it."""
        if self.webhook_secret and self.webhook_secret.get_secret_value():
            return self.webhook_secret.get_secret_value()
        return hashlib.sha256(("kosti-webhook|" + (self.token or "")).encode()).hexdigest()[:48]

    def sqlite_path(self) -> Path | None:
        """The file behind an SQLite URL, so its folder can be created before connecting."""
        prefix = "sqlite://"
        if not self.database_url.startswith(prefix):
            return None
        rest = self.database_url[len(prefix) :]
        return None if rest in ("", ":memory:") else Path(rest)
