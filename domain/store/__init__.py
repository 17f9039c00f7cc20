"""The event store of uploaded games: one ``Game`` stream per game (eventsourcing), and the
live tables (``Table`` streams) games are recorded at."""

from domain.store.backend import StoreConfig, store_env
from domain.store.game import Game, game_id_for, record_digest
from domain.store.library import (
    GameEvent,
    GameInfo,
    GameLibrary,
    UnknownGame,
    UploadResult,
    WithdrawnGame,
)
from domain.store.tables import Table, TableView, UnknownTable

__all__ = [
    "Game", "GameEvent", "GameInfo", "GameLibrary", "StoreConfig", "Table", "TableView",
    "UnknownGame", "UnknownTable", "UploadResult", "WithdrawnGame", "game_id_for",
    "record_digest", "store_env",
]  # fmt: skip
