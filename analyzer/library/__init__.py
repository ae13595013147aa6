"""The roster library: finding and loading it, its terminal views, and the JSON Schemas of its formats."""
