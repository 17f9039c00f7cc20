"""The event store of uploaded games: one ``Game`` stream per game (eventsourcing)."""

from domain.store.backend import StoreConfig, store_env
from domain.store.game import Game, game_id_for, record_digest
from domain.store.library import GameEvent, GameInfo, GameLibrary, UnknownGame, UploadResult

__all__ = [
    "Game", "GameEvent", "GameInfo", "GameLibrary", "StoreConfig", "UnknownGame", "UploadResult",
    "game_id_for", "record_digest", "store_env",
]  # fmt: skip
