"""Marquee: a self-hosted TMDB v3 / OMDb-compatible metadata service, precomputed to static files."""
