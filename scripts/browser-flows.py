#!/usr/bin/env python3
"""The planner page in a real browser: headless Chromium driven by selenium.

Starts `regimen serve` on a free loopback port and drives the flows a coach would:
  minimal   fill the minimal profile (examples/minimal.yaml), watch the accuracy meter, read the plan
  complete  fill every field of examples/complete.yaml, read the week, chart, meals and supplements
  checkin   submit a low-readiness check-in on that plan and read the change log
  keyboard  make a plan with the keyboard alone
  playground  break a rule file in the rules playground, read the located diagnostic, fix it with
            a number and see the edited plan differ from the served one, download, reset
  axe       axe-core on the planner and the playground at 1280x800 and 390x844: no serious or
            critical violation, no sideways scroll
  simulator decide an allowed and a denied request on Appendix A and read the marked reason; run its
            test file and read the coverage; axe at both sizes
  coverage  the HTML coverage report of Appendix A's tests at 1280 px: titled by its relative path,
            every sub-expression marked, nothing cut off at the right edge
  layout    at 1280 and 390 px, the plan of examples/complete.yaml and of a lean-mass client: no rep
            range or "@ RIR" broken across lines, no heading without content ("Tips"), left-out
            reasons read as sentences (never ".;"), every day's table has its columns at the same
            places; the simulator's policy list shows each policy's whole name
Each flow saves a screenshot in the output folder. Exit status 0 when every flow passes.

Usage: scripts/browser-flows.py [--regimen .build/debug/regimen] [--out .build/browser-flows] [--docs docs]
                                [--only layout,simulator]
Needs: Debian's chromium and chromium-driver; pip selenium axe-selenium-python pyyaml.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

import yaml
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class FlowFailure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise FlowFailure(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(regimen, log_path):
    port, private_port = free_port(), free_port()
    log = open(log_path, "w")
    process = subprocess.Popen(
        [regimen, "serve", "--host", "127.0.0.1", "--port", str(port), "--private-port", str(private_port),
         "--poll-interval", "0", "--log-level", "warning"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    # The flows drive the planner and the playground: the private listener serves both (the
    # public one serves the planner alone).
    url = f"http://127.0.0.1:{private_port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise FlowFailure(f"regimen serve exited with {process.returncode}; see {log_path}")
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=1) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise FlowFailure("regimen serve did not become ready within 30 s")


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--force-device-scale-factor=1", "--lang=en-US"]:
        options.add_argument(argument)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    check(binary and driver_path, "chromium and chromedriver must be installed (apt-get install chromium chromium-driver)")
    options.binary_location = binary
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(30)
    return driver


def resize(driver, name):
    width, height = SIZES[name]
    # The window's outer size differs from the viewport; set it so the viewport is exact.
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))


def screenshot(driver, out, name, full_page=True):
    """A screenshot of the whole page at the current width (the window grows to the page's height)."""
    path = out / f"{name}.png"
    if full_page:
        driver.execute_script("window.scrollTo(0, 0)")
        width = driver.execute_script("return window.innerWidth")
        size = driver.get_window_size()
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size["width"], min(height + (size["height"] - driver.execute_script("return window.innerHeight")), 6000))
        driver.save_screenshot(str(path))
        driver.set_window_size(size["width"], size["height"])
        check(width > 0, "window has no width")
    else:
        driver.save_screenshot(str(path))
    return path


DOCS = None  # --docs: where the README's screenshots go


def document_shot(driver, name, size, anchor):
    """A screenshot for the README: a viewport of `size` whose top is the element `anchor`."""
    if DOCS is None:
        return
    saved = driver.get_window_size()
    width, height = size
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", anchor)
    driver.save_screenshot(str(DOCS / f"{name}.png"))
    driver.set_window_size(saved["width"], saved["height"])


def wait(driver, seconds=15):
    return WebDriverWait(driver, seconds)


def text(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).text


def open_page(driver, url):
    driver.get_log("browser")  # what earlier flows logged (an expected 422) is theirs
    driver.get(url + "/")
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    wait(driver).until(lambda d: text(d, "#revision") not in ("", "…"))
    logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not logs, f"the page logged errors on load: {logs}")


def fill_profile(driver, profile):
    """Answers the form from a profile file, field by field, as a person would."""
    form = driver.find_element(By.ID, "profile-form")
    for key, value in profile.items():
        if value is None or value == [] or value == {}:
            continue
        if key == "sex":
            form.find_element(By.CSS_SELECTOR, f"input[name=sex][value={value}]").click()
        elif key in ("injuries", "exclusions"):
            for item in value:
                form.find_element(By.CSS_SELECTOR, f"input[name={key}][value={item}]").click()
        elif key == "overrides":
            driver.find_element(By.CSS_SELECTOR, "details.overrides summary").click()
            for name, number in value.items():
                if number is not None:
                    field = driver.find_element(By.ID, f"override_{name}")
                    field.clear()
                    field.send_keys(str(number))
        elif key == "medications":
            driver.find_element(By.ID, key).send_keys(", ".join(value))
        else:
            element = driver.find_element(By.ID, key)
            if element.tag_name == "select":
                # The page writes age ranges with an ASCII hyphen; profiles may use an en dash.
                wanted = str(value).lower().replace("\u2013", "-")
                Select(element).select_by_value(wanted)
            else:
                element.clear()
                element.send_keys(str(value))


def accuracy(driver):
    return text(driver, "#accuracy-level"), text(driver, "#accuracy-hint")


def make_plan(driver):
    driver.find_element(By.ID, "make-plan").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "plan").is_displayed())
    wait(driver).until(lambda d: text(d, "#plan-status") == "Plan ready.")


def service_json(url, path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def read_plan(driver):
    """What the page shows: per day its exercise rows, the chart's muscles, kcal and meals."""
    days = driver.find_elements(By.CSS_SELECTOR, "#week > .table-wrap")
    rows = [len(day.find_elements(By.CSS_SELECTOR, "tbody tr")) for day in days]
    muscles = driver.find_elements(By.CSS_SELECTOR, "#volume-chart svg rect.bar")
    return {
        "days": len(days), "rows": rows, "bars": len(muscles),
        "kcal": text(driver, "#nutrition .fact b"),
        "meals": len(driver.find_elements(By.CSS_SELECTOR, "#meals .meal")),
        "grams": len(driver.find_elements(By.XPATH, "//*[@id='meals']//li[contains(., ' g')]")),
        "busy": len(driver.find_elements(By.CSS_SELECTOR, "#week details.busy")),
        "supplements": len(driver.find_elements(By.CSS_SELECTOR, "#supplements .supplement")),
        "links": len(driver.find_elements(By.CSS_SELECTOR, "#json-links a[download]")),
    }


def check_plan_matches_service(driver, url, profile):
    shown = read_plan(driver)
    plan = service_json(url, "/v1/plans", profile)
    check(shown["days"] == len(plan["workouts"]), f"the page shows {shown['days']} days, the plan has {len(plan['workouts'])}")
    check(shown["rows"] == [len(w["blocks"]) for w in plan["workouts"]], f"exercise rows {shown['rows']} differ from the plan's blocks")
    check(shown["bars"] == len(plan["training"]["weekly_sets"]), "the chart has a bar per muscle of weekly_sets")
    check(shown["kcal"].replace(",", "").startswith(str(round(plan["kcal"]))), f"kcal shown {shown['kcal']} is the plan's {plan['kcal']}")
    check(shown["meals"] == len(plan["ingredients"]["meals"]), "a card per meal")
    check(shown["grams"] > 0, "meal options show grams")
    check(shown["links"] >= 2, "links to the JSON the page was built from")
    first = plan["workouts"][0]["blocks"][0]
    row = driver.find_element(By.CSS_SELECTOR, "#week > .table-wrap tbody tr").text
    check(f"{first['sets']} × {first['reps']}" in row, f"the first row '{row}' shows {first['sets']} × {first['reps']}")
    return shown


def flow_minimal(driver, url, out):
    open_page(driver, url)
    profile = yaml.safe_load((ROOT / "examples/minimal.yaml").read_text())
    fill_profile(driver, profile)
    wait(driver).until(lambda d: "accuracy" in accuracy(d)[0])
    level, hint = accuracy(driver)
    check(level.startswith("Low"), f"the minimal profile's accuracy is low, the page says '{level}'")
    check(hint.lower().startswith("add"), f"the meter says what to add, the page says '{hint}'")
    # The meter moves as fields are filled: weight, height and age range reach Medium.
    driver.find_element(By.ID, "weight_kg").send_keys("62")
    driver.find_element(By.ID, "height_cm").send_keys("168")
    Select(driver.find_element(By.ID, "age_range")).select_by_value("25-34")
    wait(driver).until(lambda d: accuracy(d)[0].startswith("Medium"))
    for field in ("weight_kg", "height_cm"):
        driver.find_element(By.ID, field).clear()
    Select(driver.find_element(By.ID, "age_range")).select_by_value("")
    wait(driver).until(lambda d: accuracy(d)[0].startswith("Low"))
    # A value out of range: the service's problem is shown at its field, which is marked invalid.
    weight = driver.find_element(By.ID, "weight_kg")
    weight.send_keys("300")
    wait(driver).until(lambda d: d.find_element(By.ID, "weight_kg").get_attribute("aria-invalid") == "true")
    message = text(driver, "[data-field=weight_kg] .field-error")
    check("30-250" in message, f"the weight's problem names the range: '{message}'")
    check("weight_kg-error" in weight.get_attribute("aria-describedby"), "the problem describes the field for a screen reader")
    weight.clear()
    wait(driver).until(lambda d: d.find_element(By.ID, "weight_kg").get_attribute("aria-invalid") is None)
    make_plan(driver)
    shown = check_plan_matches_service(driver, url, profile)
    check(shown["days"] == profile["schedule_days"], "three training days")
    screenshot(driver, out, "minimal")
    return shown


def flow_complete(driver, url, out):
    open_page(driver, url)
    profile = yaml.safe_load((ROOT / "examples/complete.yaml").read_text())
    fill_profile(driver, profile)
    wait(driver).until(lambda d: accuracy(d)[0].startswith("Highest"))
    level, hint = accuracy(driver)
    check("Every input" in hint, f"nothing left to add at the highest level, the page says '{hint}'")
    make_plan(driver)
    shown = check_plan_matches_service(driver, url, profile)
    check(shown["busy"] > 0, "busy-day variants are shown")
    check(shown["supplements"] > 0, "a supplement shortlist")
    check("Caution" in text(driver, "#supplements"), "the shortlist carries cautions")
    screenshot(driver, out, "complete")
    document_shot(driver, "planner", (1280, 1500), "plan")
    return shown


def flow_checkin(driver, url, out):
    """On the complete plan (lean mass): a bad night, high stress, very sore legs, weight below
    target. (Above target would leave calories at the lean-mass band's floor, where the plan
    already sits: the change log says so and the kcal stay.)"""
    form = driver.find_element(By.ID, "checkin-form")
    sleep = form.find_element(By.ID, "sleep_h")
    sleep.clear()
    sleep.send_keys("4")
    Select(form.find_element(By.ID, "stress")).select_by_value("5")
    Select(form.find_element(By.ID, "motivation")).select_by_value("1")
    Select(form.find_element(By.ID, "sore_legs")).select_by_value("5")
    form.find_element(By.ID, "adherence").send_keys("90")
    Select(form.find_element(By.ID, "weight_trend")).select_by_value("below")
    before = read_plan(driver)
    form.find_element(By.ID, "adapt-plan").click()
    wait(driver).until(lambda d: text(d, "#checkin-status").startswith("Plan adapted"))
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#change-log li")]
    check(any("Legs" in line and "sets" in line for line in log), f"the change log cuts leg sets: {log}")
    check(any("Calories" in line for line in log), f"the change log raises calories: {log}")
    after = read_plan(driver)
    check(after["kcal"] != before["kcal"], f"the shown calories change ({before['kcal']} → {after['kcal']})")
    driver.execute_script("document.getElementById('checkin').scrollIntoView()")
    screenshot(driver, out, "checkin")
    document_shot(driver, "planner-checkin-phone", (390, 844), "changes-title")
    return log


def flow_keyboard(driver, url, out):
    """Tab to each control of the minimal profile and make the plan without the mouse."""
    open_page(driver, url)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.get_attribute("class") == "skip", "the first Tab reaches the skip link")

    def tab_to(predicate, limit=40):
        for _ in range(limit):
            driver.switch_to.active_element.send_keys(Keys.TAB)
            if predicate(driver.switch_to.active_element):
                return driver.switch_to.active_element
        raise FlowFailure("a control is not reachable with Tab")

    radio = tab_to(lambda e: e.get_attribute("name") == "sex")
    radio.send_keys(Keys.SPACE)
    days = tab_to(lambda e: e.get_attribute("id") == "schedule_days")
    days.send_keys("3")
    button = tab_to(lambda e: e.get_attribute("id") == "make-plan", limit=80)
    button.send_keys(Keys.ENTER)
    wait(driver).until(lambda d: text(d, "#plan-status") == "Plan ready.")
    check(driver.switch_to.active_element.get_attribute("id") == "plan-title", "focus moves to the plan")
    screenshot(driver, out, "keyboard", full_page=False)


PLAYGROUND_FILE = "rules/training-volume.yaml"
# The number the flow edits: where in the week's band each muscle's sets aim (0 bottom, 1 top).
PLAYGROUND_KEY = "target_position: "


def show_view(driver, view):
    """Follows the Tools nav link to `view` (planner or playground) and waits for it."""
    driver.find_element(By.CSS_SELECTOR, f"a[data-view-link][href='#{view}']").click()
    wait(driver).until(lambda d: d.find_element(By.ID, view).is_displayed())
    check(driver.find_element(By.CSS_SELECTOR, f"a[href='#{view}']").get_attribute("aria-current") == "page", f"the {view} link is marked current")


def playground_status(driver):
    return text(driver, "#pg-check-status"), text(driver, "#pg-plan-status")


def select_text(driver, start, end):
    """Selects characters start..<end of the editor, as a person would with the mouse."""
    driver.execute_script("const a = document.getElementById('pg-text'); a.focus(); a.setSelectionRange(arguments[0], arguments[1]);", start, end)


def flow_playground(driver, url, out):
    """Break a rule file, read the diagnostic at its line and column, fix it with a number that
    changes the plan, and compare the edited plan with the served one. The page stays as the
    planner flows left it (a plan and a change log), for the axe flow to check both tools."""
    if not driver.current_url.startswith(url):
        open_page(driver, url)
    check(driver.find_element(By.CSS_SELECTOR, "li[data-requires=playground]").is_displayed(), "the playground is offered on loopback")
    show_view(driver, "playground")
    check(not driver.find_element(By.ID, "planner").is_displayed(), "one tool at a time")
    Select(driver.find_element(By.ID, "pg-file")).select_by_value(PLAYGROUND_FILE)
    served = (ROOT / PLAYGROUND_FILE).read_text()
    area = driver.find_element(By.ID, "pg-text")
    wait(driver).until(lambda d: area.get_attribute("value") == served and playground_status(d)[0].startswith("No problems"))
    wait(driver, 60).until(lambda d: playground_status(d)[1].startswith("No change"))
    client = Select(driver.find_element(By.ID, "pg-client")).first_selected_option.get_attribute("value")
    gutter = driver.find_elements(By.CSS_SELECTOR, "#pg-gutter .line")
    check(len(gutter) == served.count("\n") + 1, f"a line number per line: {len(gutter)} for {served.count(chr(10)) + 1} lines")

    # Break it: a word where the number belongs, typed over the number.
    start = served.index(PLAYGROUND_KEY) + len(PLAYGROUND_KEY)
    end = start + len(served[start:].split("\n", 1)[0])
    line = served[:start].count("\n") + 1
    column = start - served.rfind("\n", 0, start)
    select_text(driver, start, end)
    area.send_keys("halfway")
    wait(driver).until(lambda d: "error" in playground_status(d)[0])
    entries = driver.find_elements(By.CSS_SELECTOR, "#pg-diagnostics > li.error")
    located = [e for e in entries if e.find_elements(By.CSS_SELECTOR, "button.location")
               and e.find_element(By.CSS_SELECTOR, "button.location").text == f"{line}:{column}"]
    check(located, f"a diagnostic at {line}:{column}: {[e.text for e in entries]}")
    message = located[0].text
    check("target_position" in message and "halfway" in message, f"the diagnostic names the key and the value: {message}")
    check("error" in driver.find_element(By.CSS_SELECTOR, f"#pg-gutter .line:nth-child({line})").get_attribute("class"), "the gutter marks the line")
    check(driver.find_elements(By.CSS_SELECTOR, "#pg-marks .mark.error"), "the column is marked in the text")
    check("no plan" in playground_status(driver)[1], f"no plan while the rules do not load: {playground_status(driver)[1]}")
    # The location moves the caret there (keyboard: the button is a button).
    select_text(driver, 0, 0)
    located[0].find_element(By.CSS_SELECTOR, "button.location").send_keys(Keys.ENTER)
    caret = driver.execute_script("return document.getElementById('pg-text').selectionStart")
    check(caret == start, f"the caret moves to {line}:{column} (offset {start}), not offset {caret}")
    check(text(driver, "#pg-caret") == f"line {line}, column {column}", f"the caret is shown at {text(driver, '#pg-caret')}")

    # Reset restores the served text.
    driver.find_element(By.ID, "pg-reset").click()
    wait(driver).until(lambda d: area.get_attribute("value") == served and playground_status(d)[0].startswith("No problems"))

    # Fix it with a number that moves every band's target to its top: the plan changes.
    select_text(driver, start, end)
    area.send_keys("1")
    wait(driver, 60).until(lambda d: playground_status(d)[0].startswith("No problems") and "change" in playground_status(d)[1]
                           and not playground_status(d)[1].startswith(("No change", "Planning")))
    shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#pg-changes li")]
    edited = area.get_attribute("value")
    answer = service_json(url, "/v1/playground/plan", {"path": PLAYGROUND_FILE, "text": edited, "client": client})
    check(shown and shown == [c["summary"] for c in answer["changes"]], f"the changes listed are the service's: {shown[:3]}")
    check(any("weekly sets" in line for line in shown), f"weekly sets change: {shown[:5]}")
    differs = driver.find_elements(By.CSS_SELECTOR, "#pg-compare tr.differs")
    check(differs, "the edited plan differs from the served one in the table")
    # Workout blocks are the service's aligned rows (as regimen impact places them), each with
    # the block on both sides; a row marked changed is a block the changes name.
    table = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "#pg-compare tbody tr"):
        cells = [row.find_element(By.CSS_SELECTOR, "th").text] + [td.text.replace("changed", "").strip() for td in row.find_elements(By.CSS_SELECTOR, "td")]
        table.setdefault(cells[0], []).append(tuple(cells[1:]))
    measures = [c["measure"] for c in answer["changes"]]
    for block in answer["blocks"]:
        sides = (block["served"] or "—", block["edited"] or "—")
        check(sides in table.get(block["place"], []), f"the table shows {block['place']} as the service aligns it: {sides}")
        if sides[0] != sides[1]:
            check(any(m == block["place"] or m.startswith(block["place"] + ", ") for m in measures), f"{block['place']} is named in the changes")
    check((ROOT / PLAYGROUND_FILE).read_text() == served, "the file on disk is untouched")

    # Download saves the edited text (the blob handed to the link is read back).
    driver.execute_script("""
        window.__downloads = [];
        const create = URL.createObjectURL;
        URL.createObjectURL = (blob) => { window.__downloads.push(blob); return create.call(URL, blob); };""")
    driver.find_element(By.ID, "pg-download").click()
    saved = driver.execute_async_script("const done = arguments[0]; window.__downloads[0].text().then(done);")
    check(saved == edited, "Download saves the edited text")

    driver.execute_script("document.getElementById('playground').scrollIntoView()")
    screenshot(driver, out, "playground")
    document_shot(driver, "playground", (1280, 1500), "playground-title")
    return {"diagnostic": f"{line}:{column}", "changes": len(shown), "differing rows": len(differs)}


def axe_check(driver, name):
    driver.execute_script("window.scrollTo(0, 0)")
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"{name}: the page scrolls sideways by {overflow} px")
    axe = Axe(driver)
    axe.inject()
    report = axe.run()
    bad = [v for v in report["violations"] if v.get("impact") in ("serious", "critical")]
    check(not bad, f"{name}: axe reports {[(v['id'], v['impact'], [n['target'] for n in v['nodes']][:3]) for v in bad]}")
    return [(v["id"], v["impact"], len(v["nodes"])) for v in report["violations"]]


def flow_axe(driver, url, out):
    """axe-core on the planner with a plan and a change log, and on the playground with a
    changed plan and with a diagnostic, at both sizes."""
    results = {}
    for name in SIZES:
        resize(driver, name)
        show_view(driver, "planner")
        results[name] = axe_check(driver, name)
        screenshot(driver, out, f"axe-{name}")
        show_view(driver, "playground")
        results[f"playground-{name}"] = axe_check(driver, f"playground at {name}")
        screenshot(driver, out, f"axe-playground-{name}")
    # A diagnostic shown, at the phone's size.
    area = driver.find_element(By.ID, "pg-text")
    select_text(driver, 0, 0)
    area.send_keys("kind: [")
    wait(driver).until(lambda d: "error" in playground_status(d)[0])
    results["playground-diagnostics"] = axe_check(driver, "playground with a diagnostic at phone")
    screenshot(driver, out, "axe-playground-diagnostics")
    driver.find_element(By.ID, "pg-reset").click()
    show_view(driver, "planner")
    resize(driver, "desktop")
    return results


def unmarked_text(element):
    """An element's visible text without the hidden words that tell what a mark is."""
    return element.parent.execute_script(
        "const c = arguments[0].cloneNode(true); c.querySelectorAll('.visually-hidden').forEach(n => n.remove());"
        " return c.textContent;", element)


def decide(driver, uid, expected):
    uid_field = driver.find_element(By.ID, "sim-uid")
    uid_field.clear()
    uid_field.send_keys(uid)
    driver.find_element(By.ID, "sim-decide").click()
    wait(driver).until(lambda d: text(d, "#sim-status").startswith("Decided"))
    verdict = text(driver, "#sim-verdict")
    check(verdict.startswith(expected), f"{uid}: the verdict is {verdict!r}, not {expected}")
    marks = driver.find_elements(By.CSS_SELECTOR, "#sim-source mark")
    check(marks, f"{uid}: no sub-expression is marked in the policy text")
    return [unmarked_text(mark) for mark in marks], marks


def service_json_text(url, policy):
    """A served policy's text, as the simulator's decide answer carries it."""
    body = json.dumps({"policy": policy, "method": "get", "path": "users/alice", "auth": None}).encode()
    request = urllib.request.Request(url + "/v1/playground/simulator/decide", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["policy"]["text"]


def flow_simulator(driver, url, out):
    """Decide an allowed and a denied request on Appendix A; run its tests and read the coverage."""
    open_page(driver, url)
    driver.get(url + "/#simulator")
    wait(driver).until(lambda d: d.find_element(By.ID, "simulator").is_displayed())
    wait(driver).until(lambda d: len(Select(d.find_element(By.ID, "sim-policy")).options) > 1)
    check(Select(driver.find_element(By.ID, "sim-policy")).first_selected_option.get_attribute("value") == "workout-tracker/appendix-a",
          "Appendix A is the policy chosen first")
    Select(driver.find_element(By.ID, "sim-method")).select_by_value("get")
    path = driver.find_element(By.ID, "sim-path")
    path.clear()
    path.send_keys("users/alice")
    allowed, _ = decide(driver, "alice", "ALLOW")
    check(allowed == ["isOwner(userId) || isAdmin()"], f"the allowed request marks {allowed}")
    evaluations = text(driver, "#sim-evaluations")
    check("allow read (line 18): true" in evaluations, f"the evaluated statement is listed: {evaluations!r}")
    denied, marks = decide(driver, "bob", "DENY")
    check(denied == ["request.auth.token.admin"], f"the denied request marks {denied}")
    spoken = marks[0].get_attribute("textContent")
    check(spoken.startswith("Deciding sub-expression: "), f"the mark says what it is, not by colour alone: {spoken!r}")
    reason = text(driver, "#sim-reason")
    check("request.auth.token.admin" in reason and "line 8, column 49" in reason and "isAdmin()" in reason,
          f"the reason names the sub-expression, where it is and the function: {reason!r}")
    check(driver.switch_to.active_element.get_attribute("id") == "sim-verdict", "focus moves to the verdict")
    lines = driver.find_elements(By.CSS_SELECTOR, "#sim-source ol.source > li")
    check(len(lines) == len(service_json_text(url, "workout-tracker/appendix-a").split("\n")) - 1,
          f"the policy text is shown with a numbered line each ({len(lines)} lines)")
    screenshot(driver, out, "simulator")
    if DOCS is not None:
        # The README's shot at 1280x800: the verdict, the statements, and the marked line in view.
        resize(driver, "desktop")
        driver.execute_script(
            "document.getElementById('sim-result').scrollIntoView();"
            "const mark = document.querySelector('#sim-source mark'); const box = mark.closest('.policy-source');"
            "box.scrollTop = Math.max(0, mark.offsetTop - box.offsetTop - 40);")
        time.sleep(0.3)
        driver.save_screenshot(str(DOCS / "simulator.png"))
    # The test file of the policy, with coverage.
    driver.find_element(By.ID, "sim-load-tests").click()
    wait(driver).until(lambda d: text(d, "#sim-tests-status").startswith("Loaded"))
    driver.find_element(By.ID, "sim-run").click()
    wait(driver, 30).until(lambda d: "passed" in text(d, "#sim-tests-status"))
    summary = text(driver, "#sim-tests-summary")
    check(summary.endswith(" 0 failed"), f"every case of Appendix A's tests passes: {summary!r}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#sim-coverage tbody tr")
    check(len(rows) > 100, f"coverage lists every sub-expression ({len(rows)} rows)")
    screenshot(driver, out, "simulator-tests")
    analysis = check_property_and_compare(driver, out) if shutil.which("z3") else "skipped: no z3 on PATH"
    results = {}
    for name in SIZES:
        resize(driver, name)
        driver.execute_script("window.scrollTo(0, 0)")
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"{name}: the simulator scrolls sideways by {overflow} px")
        axe = Axe(driver)
        axe.inject()
        report = axe.run()
        bad = [v for v in report["violations"] if v.get("impact") in ("serious", "critical")]
        results[name] = [(v["id"], v["impact"], len(v["nodes"])) for v in report["violations"]]
        check(not bad, f"{name}: axe reports {[(v['id'], v['impact'], [n['target'] for n in v['nodes']][:3]) for v in bad]}")
        screenshot(driver, out, f"simulator-{name}")
    resize(driver, "desktop")
    return {"allowed": allowed, "denied": denied, "tests": summary, "analysis": analysis, "axe": results}


def check_property_and_compare(driver, out):
    """The simulator's symbolic analysis on Appendix A: a property proved, one broken with a
    counterexample, and an edit compared with the served version."""
    def prove(method, pattern, condition):
        Select(driver.find_element(By.ID, "sim-prove-method")).select_by_value(method)
        Select(driver.find_element(By.ID, "sim-prove-kind")).select_by_value("assert")
        for field_id, value in (("sim-prove-path", pattern), ("sim-prove-assert", condition)):
            field = driver.find_element(By.ID, field_id)
            field.clear()
            field.send_keys(value)
        driver.find_element(By.ID, "sim-prove").click()
        wait(driver, 60).until(lambda d: text(d, "#sim-prove-status") in ("Proved.", "Not proved."))
        return text(driver, "#sim-prove-verdict"), text(driver, "#sim-prove-entries")

    verdict, _ = prove("delete", "/users/{userId}", "request.auth.token.admin == true")
    check(verdict.startswith("PROVED"), f"only admins delete a user in Appendix A: {verdict!r}")
    check(driver.switch_to.active_element.get_attribute("id") == "sim-prove-verdict", "focus moves to the proof's verdict")
    verdict, entries = prove("update", "/users/{userId}", "request.auth.uid == userId")
    check(verdict.startswith("NOT PROVED"), f"admins update other users' documents: {verdict!r}")
    check("does not hold" in entries and "expect: allow" in entries and "admin" in entries,
          f"the broken assertion shows a counterexample case: {entries!r}")
    screenshot(driver, out, "simulator-prove")
    driver.find_element(By.ID, "sim-compare-load").click()
    wait(driver).until(lambda d: text(d, "#sim-compare-status").startswith("Loaded"))
    area = driver.find_element(By.ID, "sim-compare-text")
    served = area.get_attribute("value")
    original = "allow delete: if isAdmin(); // admin-only deletes"
    check(original in served, "the served text is loaded for editing")
    driver.execute_script("arguments[0].value = arguments[1];", area, served.replace(original, "allow delete: if isSignedIn();"))
    driver.find_element(By.ID, "sim-compare").click()
    wait(driver, 120).until(lambda d: text(d, "#sim-compare-status") == "Equivalent." or "difference" in text(d, "#sim-compare-status"))
    summary = text(driver, "#sim-compare-summary")
    check(summary.startswith("DIFFERENT") and "1 difference with a confirmed counterexample, 0 unconfirmed" in summary,
          f"the edit opens exactly one path/method pair: {summary!r}")
    listed = text(driver, "#sim-compare-entries")
    check("delete /users/{userId}" in listed and "newly allows" in listed and "denies nothing new (proved)" in listed,
          f"the changed pair names what it newly allows: {listed[:400]!r}")
    screenshot(driver, out, "simulator-compare")
    return {"proved": "delete /users/{userId}", "compare": summary}


def flow_coverage(driver, url, out):
    """The coverage report of Appendix A's tests at 1280 px."""
    regimen = ARGUMENTS.regimen
    folder = out / "coverage"
    tests = ROOT / "rules/security/workout-tracker/appendix-a.tests.yaml"
    run = subprocess.run([regimen, "test", "--coverage", "--coverage-output", str(folder), str(tests)],
                         cwd=ROOT, capture_output=True, text=True)
    check(run.returncode == 0, f"regimen test --coverage failed: {run.stderr}")
    resize(driver, "desktop")
    driver.get((folder / "appendix-a.rules.html").resolve().as_uri())
    check(driver.title == "Coverage: rules/security/workout-tracker/appendix-a.rules", f"the page is titled {driver.title!r}")
    marks = driver.find_elements(By.CSS_SELECTOR, "td.s span.x")
    check(len(marks) > 100, f"every sub-expression is marked ({len(marks)})")
    first = marks[0].get_attribute("title")
    check("evaluated" in first, f"a mark's title gives its counts: {first!r}")
    details = driver.find_elements(By.CSS_SELECTOR, "details summary")
    check(details, "each statement has a list of its sub-expressions")
    details[0].send_keys(Keys.ENTER)
    check(driver.find_element(By.CSS_SELECTOR, "details").get_attribute("open") is not None, "the list opens with the keyboard")
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"the report scrolls sideways by {overflow} px at 1280 px")
    cut = driver.execute_script(
        "return [...document.querySelectorAll('td.a, td.s')].filter(c => c.scrollWidth > c.clientWidth + 1).length")
    check(cut == 0, f"{cut} cells are cut off at their right edge")
    axe = Axe(driver)
    axe.inject()
    report = axe.run()
    bad = [v for v in report["violations"] if v.get("impact") in ("serious", "critical")]
    check(not bad, f"axe reports {[(v['id'], v['impact'], [n['target'] for n in v['nodes']][:3]) for v in bad]}")
    screenshot(driver, out, "coverage", full_page=False)
    if DOCS is not None:
        # The top of the report: its title and figures, the helpers, and the first list opened.
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(DOCS / "coverage.png"))
    # The coaching rules' coverage page shares the stylesheet: it must stay readable too.
    coaching = subprocess.run([regimen, "test", "--coverage", "--coverage-output", str(folder), "rules/tests/plan-tests-training.yaml"],
                              cwd=ROOT, capture_output=True, text=True)
    check(coaching.returncode == 0, f"regimen test --coverage on the plan tests failed: {coaching.stderr}")
    driver.get((folder / "coaching-rules.html").resolve().as_uri())
    coaching_overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(coaching_overflow <= 0, f"the coaching coverage page scrolls sideways by {coaching_overflow} px at 1280 px")
    check(driver.find_elements(By.CSS_SELECTOR, "tr.hit"), "the coaching coverage page marks covered rules")
    return {"marks": len(marks), "lists": len(details)}


ARGUMENTS = None


LAYOUT_SCRIPT = """
const out = {broken: [], emptyHeadings: [], columns: [], reasons: ''};
// Each "3 × 8–12" and "@ RIR 1–2" of a prescription cell must sit on one line: a text range
// split across lines has its rectangles at more than one height.
for (const cell of document.querySelectorAll('#week td.num')) {
  if (cell.offsetParent === null) continue;
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  const pieces = [];
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) { pieces.push([node, text.length]); text += node.data; }
  const at = (offset) => {
    let found = pieces[0];
    for (const piece of pieces) if (piece[1] <= offset) found = piece;
    return [found[0], Math.min(offset - found[1], found[0].data.length)];
  };
  for (const match of text.matchAll(/\d+ × \d+(?:[–-]\d+)?|@ RIR \d+(?:[–-]\d+)?/g)) {
    const range = document.createRange();
    range.setStart(...at(match.index));
    range.setEnd(...at(match.index + match[0].length));
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) out.broken.push(match[0]);
  }
}
for (const heading of document.querySelectorAll('#plan h3')) {
  if (heading.offsetParent === null) continue;
  const next = heading.nextElementSibling;
  if (next && next.offsetParent !== null && next.textContent.trim() === '') out.emptyHeadings.push(heading.textContent);
  if (next && next.offsetParent === null) out.emptyHeadings.push(heading.textContent + ' (its content is hidden)');
}
for (const table of document.querySelectorAll('#week > .table-wrap > table')) {
  const left = table.getBoundingClientRect().left;
  out.columns.push([...table.querySelectorAll('thead th')].map((th) => Math.round(th.getBoundingClientRect().left - left)));
}
out.reasons = document.getElementById('supplements').textContent;
return out;
"""

POLICY_FIT_SCRIPT = """
const select = document.getElementById('sim-policy');
const style = getComputedStyle(select);
const context = document.createElement('canvas').getContext('2d');
context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
// The room for the chosen option's text: the box less its padding and the list's arrow.
const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
return [...select.options].filter((o) => o.value).map((o) => [o.text, Math.ceil(context.measureText(o.text).width), Math.floor(room)]);
"""


def flow_layout(driver, url, out):
    """The page's layout defects, each asserted at 1280 and 390 px."""
    # Every input the tips ask for is given, so this plan has no tips (the "Tips" heading case).
    lean = {"sex": "male", "schedule_days": 4, "goal": "lean_mass", "experience": "intermediate", "weight_kg": 80,
            "height_cm": 180, "age": 30, "bodyfat_pct": 18, "waist_cm": 82, "meals_per_day": 4}
    profiles = [("complete", yaml.safe_load((ROOT / "examples/complete.yaml").read_text())), ("lean", lean)]
    detail = {}
    problems = []

    def expect(condition, message):
        # Every defect at every size is reported, not only the first.
        if not condition:
            problems.append(message)

    for size in ("desktop", "phone"):
        resize(driver, size)
        for name, profile in profiles:
            open_page(driver, url)
            fill_profile(driver, profile)
            make_plan(driver)
            wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#week td.num"))
            found = driver.execute_script(LAYOUT_SCRIPT)
            where = f"{name} at {SIZES[size][0]} px"
            expect(not found["broken"], f"{where}: a rep range or RIR breaks across lines: {found['broken'][:5]}")
            expect(not found["emptyHeadings"], f"{where}: a heading without content: {found['emptyHeadings']}")
            expect(".;" not in found["reasons"] and ". ;" not in found["reasons"], f"{where}: left-out reasons run together: {found['reasons'][:300]!r}")
            columns = found["columns"]
            expect(len(columns) > 1 and all(c == columns[0] for c in columns),
                  f"{where}: the day tables' columns are not at the same places: {columns}")
            detail[f"{name}-{size}"] = {"days": len(columns), "columns": columns[0] if columns else None}
        screenshot(driver, out, f"layout-{size}")
        driver.get(url + "/#simulator")
        wait(driver).until(lambda d: d.find_element(By.ID, "simulator").is_displayed())
        wait(driver).until(lambda d: len(Select(d.find_element(By.ID, "sim-policy")).options) > 1)
        cut = [option for option in driver.execute_script(POLICY_FIT_SCRIPT) if option[1] > option[2]]
        expect(not cut, f"the policy list cuts names off at {SIZES[size][0]} px (text px > room px): {cut}")
    resize(driver, "desktop")
    check(not problems, "; ".join(problems))
    return detail


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regimen", default=str(ROOT / ".build/debug/regimen"))
    parser.add_argument("--out", default=str(ROOT / ".build/browser-flows"))
    parser.add_argument("--docs", help="also save the README's screenshots in this folder (docs/)")
    parser.add_argument("--only", help="run only these flows (comma-separated names, e.g. layout)")
    arguments = parser.parse_args()
    global DOCS, ARGUMENTS
    ARGUMENTS = arguments
    DOCS = Path(arguments.docs) if arguments.docs else None
    if DOCS is not None:
        DOCS.mkdir(parents=True, exist_ok=True)
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.png"):
        stale.unlink()
    service, url = start_service(arguments.regimen, out / "serve.log")
    driver = None
    passed, failed = 0, 0
    try:
        driver = browser()
        resize(driver, "desktop")
        flows = [("minimal", flow_minimal), ("complete", flow_complete), ("checkin", flow_checkin),
                 ("playground", flow_playground), ("axe", flow_axe), ("keyboard", flow_keyboard), ("simulator", flow_simulator),
                 ("coverage", flow_coverage), ("layout", flow_layout)]
        if arguments.only:
            wanted = set(arguments.only.split(","))
            flows = [(name, flow) for name, flow in flows if name in wanted]
        for name, flow in flows:
            start = time.monotonic()
            try:
                detail = flow(driver, url, out)
                passed += 1
                print(f"ok   {name} ({time.monotonic() - start:.1f} s){'' if detail is None else ': ' + json.dumps(detail, ensure_ascii=False)}")
            except Exception as error:  # a failed flow is reported and the rest still run
                failed += 1
                print(f"FAIL {name}: {error}", file=sys.stderr)
                if not isinstance(error, FlowFailure):
                    traceback.print_exc()
                try:
                    screenshot(driver, out, f"{name}-failed", full_page=False)
                except Exception:
                    pass
    finally:
        if driver is not None:
            driver.quit()
        service.terminate()
        try:
            service.wait(timeout=10)
        except subprocess.TimeoutExpired:
            service.kill()
    print(f"screenshots in {out}")
    print(f"browser-flows: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
