#!/usr/bin/env python3
"""The evaluation graph of game review (`polydam serve`, graph.js) in headless Chromium.

Loads the 60-move International test game (tests/data/review-international.pdn) through the
PDN box, presses "Evaluate game" and waits until every position of the main line (121) has a
point on the graph; checks that the points follow the main line in order, that the scores lie
within the graph and that the game's scores are not all the same; clicks a point and checks
that the board shows that position; saves a screenshot. Exits non-zero on the first failure.

    python3 tests/browser/graph.py --polydam target/debug/polydam --out target/web-shots
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from web_board import Failure, body, report_failure, start_browser, start_server, wait

GAME = os.path.join(os.path.dirname(__file__), "..", "data", "review-international.pdn")
PLIES = 120


def check_graph(driver, out):
    with open(GAME, encoding="utf-8") as f:
        game = f.read()
    driver.execute_script("document.querySelector('#position details').open = true;"
                          "document.getElementById('pdn').value = arguments[0];", game)
    driver.find_element(By.ID, "load-pdn").click()
    wait(driver, "the loaded game", lambda d: body(d, "ply") == str(PLIES))
    graph = driver.find_element(By.ID, "graph")
    driver.find_element(By.ID, "evaluate-game").click()
    deadline = time.time() + 240
    while int(graph.get_attribute("data-points")) < PLIES + 1:
        if time.time() > deadline:
            raise Failure(f"only {graph.get_attribute('data-points')} of {PLIES + 1} points after 240 s")
        time.sleep(0.5)
    wait(driver, "the evaluation to finish",
         lambda d: d.find_element(By.ID, "evaluate-game").text == "Evaluate game")
    points = driver.find_element(By.CSS_SELECTOR, "#graph .graph-line").get_attribute("points").split()
    if len(points) != PLIES + 1:
        raise Failure(f"the line has {len(points)} points, not {PLIES + 1}")
    xs = [float(p.split(",")[0]) for p in points]
    ys = [float(p.split(",")[1]) for p in points]
    if xs != sorted(xs) or xs[0] != 0 or abs(xs[-1] - 300) > 0.1:
        raise Failure(f"the points do not follow the game from left to right: {xs[:5]}...{xs[-3:]}")
    if any(y < 0 or y > 100 for y in ys):
        raise Failure("a point lies outside the graph")
    if len(set(ys)) < 5:
        raise Failure(f"the game's scores are nearly all the same: {sorted(set(ys))}")
    # A point is a way into the game: click the 41st position (ply 40).
    dots = driver.find_elements(By.CSS_SELECTOR, "#graph .graph-dot")
    if len(dots) != PLIES + 1:
        raise Failure(f"{len(dots)} clickable points, not {PLIES + 1}")
    node = dots[40].get_attribute("data-node")
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", dots[40])
    wait(driver, "the clicked position", lambda d: body(d, "node") == node and body(d, "ply") == "40")
    driver.execute_script("document.getElementById('message').hidden = true")
    driver.find_element(By.ID, "graph-panel").screenshot(os.path.join(out, "review-graph.png"))
    driver.save_screenshot(os.path.join(out, "review-graph-page.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polydam", default="target/debug/polydam")
    parser.add_argument("--out", default="target/web-shots", help="directory for screenshots")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server = driver = None
    profile = tempfile.mkdtemp(prefix="polydam-chromium-")
    started = time.time()
    try:
        server, url = start_server(args.polydam)
        driver = start_browser(profile)
        driver.get(url)
        wait(driver, "the page's first state", lambda d: body(d, "ply") == "0")
        check_graph(driver, args.out)
        severe = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if severe:
            raise Failure(f"browser console errors: {severe}")
    except (Failure, WebDriverException, OSError, ValueError) as e:
        report_failure("graph", e)
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.kill()
            server.wait()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"graph test passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
