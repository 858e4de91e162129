#!/usr/bin/env python3
"""The evaluation graph of game review (`polydam serve`, graph.js) in headless Chromium.

Loads the 60-move International test game (tests/data/review-international.pdn) through the
PDN box, presses "Evaluate game" and waits until every position of the main line (121) has a
point on the graph; checks that the points follow the main line in order, that the scores lie
within the graph and that the game's scores are not all the same; clicks a point and checks
that the board shows that position; saves a screenshot. Exits non-zero on the first failure.

    python3 tests/browser/graph.py --polydam target/debug/polydam --out target/web-shots
"""

import os
import sys
import time

from selenium.webdriver.common.by import By

from web_board import Failure, body, run_browser_test, wait

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
    return run_browser_test("graph", __doc__, lambda driver, url, args: check_graph(driver, args.out),
                            errors=(OSError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
