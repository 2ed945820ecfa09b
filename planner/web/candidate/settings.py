"""What the candidate pages read from configuration."""

from __future__ import annotations

from flask import current_app

from planner.services.candidate_offers import OfferSettings


def offer_settings() -> OfferSettings:
    """The CANDIDATE_* settings: horizon, hours, notice, start step, days a loop may spread over, cache."""
    return OfferSettings.from_mapping(current_app.config)


def company() -> str:
    """The company name candidates see (COMPANY_NAME, else the organizer's name)."""
    config = current_app.config
    return str(config.get("COMPANY_NAME") or config.get("MAIL_ORGANIZER_NAME") or "Recruiting")
