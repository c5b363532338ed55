"""A guest registers his name from his profile (the header's name links there): the profile
then says registered, and the name and password log in after logging out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import sign_in_as_guest

pytestmark = pytest.mark.e2e

TIMEOUT = 10_000


def test_a_guest_registers_his_name_from_the_profile(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url + "/")
    sign_in_as_guest(page, "Gwen", TIMEOUT)
    name = page.inner_text("#account-badge").strip()
    page.click("#badge-profile")
    page.wait_for_selector("#p-head .tag:has-text('guest')", timeout=TIMEOUT)
    page.fill("#upgrade-password", "castle-keep-8")
    page.screenshot(path=str(artifacts / "guest-upgrade-form.png"))
    page.click("#upgrade-button")
    page.wait_for_selector("#p-head .tag:has-text('registered')", timeout=TIMEOUT)
    assert page.locator("#upgrade-form").count() == 0

    page.goto(server_url + "/")
    page.click("button:has-text('Log out')")
    page.fill("#login-name", name)
    page.fill("#login-password", "castle-keep-8")
    page.click("button:has-text('Log in')")
    page.wait_for_selector(f"#account-badge:has-text('{name}')", timeout=TIMEOUT)
    page.wait_for_selector(".account .tag:has-text('registered')", timeout=TIMEOUT)
    assert errors == []
    context.close()
