"""The rule systems of the Mini App: one package per system."""
