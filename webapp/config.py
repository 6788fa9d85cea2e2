"""Mini App settings read from the environment (bot/settings.py stays the bot's own)."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DAY = 24 * 60 * 60


class WebAppConfig(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    # Refuse initData older than this many seconds (Telegram signs it when the app opens).
    init_data_max_age: int = Field(DAY, ge=60, validation_alias="INIT_DATA_MAX_AGE")
    # Tolerated clock difference for an auth_date in the future.
    init_data_future_skew: int = Field(60, ge=0, validation_alias="INIT_DATA_FUTURE_SKEW")
    # Development mode: /dev/open signs initData locally (loopback clients only).
    dev_init_data: bool = Field(
        False, validation_alias=AliasChoices("KOSTI_DEV_INIT_DATA", "DEV_INIT_DATA")
    )
    # Development mode with a token that is not of the dev/test form (webapp/dev.py
    # `is_dev_token`): refused at start unless this second setting says so too.
    dev_allow_real_token: bool = Field(False, validation_alias="KOSTI_DEV_ALLOW_REAL_TOKEN")
    # Rolls shown in the feed and in a live snapshot.
    feed_size: int = Field(30, ge=1, le=200, validation_alias="WEBAPP_FEED_SIZE")
