"""Pure league logic: finishing orders, rankings and the Guildmaster CSV format (no Django)."""
