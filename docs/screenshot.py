"""Take a screenshot of a page of a running site with Chromium (Playwright), as the
README's pictures were made:

    make demo    # in another terminal: the demo site on http://127.0.0.1:8000
    .venv/bin/python docs/screenshot.py /events/ocho-rios-open/projector/ docs/projector.png
    .venv/bin/python docs/screenshot.py /director/kingston-open/ docs/dashboard.png \
        --login director:kalooki --size 1280x1400
"""

from __future__ import annotations

import argparse

from playwright.sync_api import sync_playwright


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="the page, e.g. /events/kingston-open/")
    parser.add_argument("out", help="the PNG file to write")
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--size", default="1600x900", help="the window, WIDTHxHEIGHT")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument(
        "--login", help="USER:PASSWORD to sign in first (a director's page), e.g. director:kalooki"
    )
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height})
        if args.login:
            username, _, password = args.login.partition(":")
            page.goto(args.base + "/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", password)
            page.press("#id_password", "Enter")
            page.wait_for_load_state()
        page.goto(args.base + args.path)
        page.wait_for_timeout(1500)  # the clock ticks, the projector lays out its first page
        page.evaluate("window.scrollTo(0, 0)")  # an autofocus box may have scrolled it
        page.screenshot(path=args.out)
        browser.close()


if __name__ == "__main__":
    main()
