#!/usr/bin/env python3
"""Writes a long, varied Markdown document for the summariser's tests and demos.

The document is the (fictional) yearbook of a light station on a northern
cape, about 2,500 characters a page: chapters on the lens, the fog signal,
tides, weather, supplies, staff, visitors, wildlife, incidents, radio aids
and the buildings, each with sections of generated prose, a table of
readings, and interludes taken from the project's own corpora (the English
prose, the support chat transcript and the tidewatch README). Every
sentence is built from this script's own templates, so the text is
original; a seeded generator makes it the same on every run.

    scripts/make-long-document.py                 50 pages to standard output
    scripts/make-long-document.py --pages 8 -o /tmp/doc.md
"""
import argparse
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHARS_PER_PAGE = 2500

KEEPERS = ["Ines Valcourt", "Tomas Reyes", "Maren Holt", "Olu Adeyemi", "Sakura Endo", "Pavel Dubrov",
           "Grace Munroe", "Hamid Farouk", "Lotte Brandt", "Callum Price", "Noor Haddad", "Emil Sorensen"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
PLACES = ["the northern cape", "Gull Point", "the inner harbour", "Seal Rock", "the old quay", "Kettle Bay",
          "the east breakwater", "Marram Dunes", "the lifeboat slip", "Hollow Reef", "the pilot station", "Cairn Hill"]
VESSELS = ["the ferry Osprey", "the trawler Good Intent", "the survey launch Petrel", "the yacht Blue Heron",
           "the coaster Maria Kay", "the pilot boat Tern", "a Dutch sail training ship", "the supply barge Cormorant"]

THEMES = [
    ("The Lens and the Lamp", [
        "The first-order lens", "Cleaning and inspection", "The rotation machinery", "Changing to LED"], {
        "thing": ["the bullseye panels", "the upper catadioptric prisms", "the brass lens frame", "the mercury bath",
                  "the LED cluster", "the clockwork drive", "the pedestal bearings", "the lantern glazing"],
        "action": ["polished", "measured", "realigned", "inspected", "photographed", "wiped down",
                   "checked", "tested"],
        "finding": ["a hairline crack in one prism", "a film of salt that dulled the beam", "a worn gear tooth",
                    "a bearing that ran slightly warm", "no fault at all", "a loose retaining screw",
                    "condensation between two panels", "a flash interval two tenths of a second slow"],
    }),
    ("The Fog Signal", [
        "Compressors and reeds", "Fog seasons", "Complaints and compromises"], {
        "thing": ["the diaphone", "the air compressor", "the receiver tank", "the reed horn", "the fog detector",
                  "the timing relay", "the emergency generator"],
        "action": ["sounded", "overhauled", "drained", "recalibrated", "test-ran", "serviced"],
        "finding": ["a sticking valve", "water in the air line", "a cracked diaphragm", "a relay that chattered",
                    "fog thick enough to hide the jetty", "a detector fooled by sea spray", "a clean bill of health"],
    }),
    ("Tides and the Harbour", [
        "The tide gauge", "Spring and neap tides", "Silting in the channel"], {
        "thing": ["the tide gauge", "the stilling well", "the pressure sensor", "the channel buoys", "the harbour wall",
                  "the tide board", "the dredged channel"],
        "action": ["read", "levelled", "cleaned out", "checked", "surveyed", "logged"],
        "finding": ["a surge of forty centimetres above prediction", "sand packed into the intake",
                    "an hour's offset caused by daylight saving", "a tide lower than any on record for the month",
                    "agreement with the tables to within three centimetres", "a buoy dragged off station"],
    }),
    ("Weather Through the Year", [
        "Winter gales", "The long summer", "Autumn equinox storms"], {
        "thing": ["the anemometer", "the barometer", "the rain gauge", "the wind vane", "the sunshine recorder",
                  "the thermometer screen"],
        "action": ["read", "reset", "recalibrated", "cleaned", "repaired", "checked"],
        "finding": ["gusts of ninety kilometres an hour", "a pressure drop of twenty hectopascals in six hours",
                    "the wettest week in eleven years", "hail that stripped paint from the gallery rail",
                    "a calm so complete the flag hung straight down", "sea fog that lingered until noon"],
    }),
    ("Supplies and Logistics", [
        "The supply barge", "Fuel and water", "Winter stores"], {
        "thing": ["the diesel tanks", "the rainwater cistern", "the store room", "the winch on the landing",
                  "the supply manifest", "the cold store"],
        "action": ["restocked", "inventoried", "pumped out", "greased", "inspected", "checked"],
        "finding": ["enough fuel for nine weeks", "a crate of lamp glass broken in transit", "rats in the flour sacks",
                    "a cistern at half capacity after a dry month", "a winch cable frayed near the drum",
                    "two pallets left behind on the quay"],
    }),
    ("Staff and Training", [
        "Rotas and watches", "New keepers", "First aid and rescue drills"], {
        "thing": ["the watch rota", "the rescue line", "the first aid kit", "the radio log", "the training manual",
                  "the breathing apparatus"],
        "action": ["revised", "tested", "restocked", "signed off", "checked", "reviewed"],
        "finding": ["a rota that left one keeper on four nights running", "an expired burn dressing",
                    "a drill finished two minutes faster than last year", "a trainee ready to stand watch alone",
                    "a gap in the radio log on a stormy night", "a rope that failed its load test"],
    }),
    ("Visitors and the Open Days", [
        "School visits", "The open weekend", "Letters from visitors"], {
        "thing": ["the visitor book", "the spiral stair", "the lens room tour", "the exhibition panels",
                  "the gift table", "the guided walk"],
        "action": ["prepared", "ran", "updated", "cleaned", "closed", "reopened"],
        "finding": ["a class that counted all one hundred and twenty steps", "a visitor who had kept the light in 1968",
                    "questions about why the lens is covered by day", "a queue that reached the car park",
                    "a drawing of the tower left on the gallery bench", "a lost child found asleep in the lamp room"],
    }),
    ("Wildlife on the Cape", [
        "Seabird colonies", "Seals and cetaceans", "Migrants at the light"], {
        "thing": ["the puffin burrows", "the kittiwake ledges", "the seal haul-out", "the bird count transect",
                  "the moth trap", "the cliff path"],
        "action": ["counted", "surveyed", "photographed", "walked", "fenced off", "mapped"],
        "finding": ["three hundred and forty occupied burrows", "a minke whale feeding off the point",
                    "a fall of warblers after an easterly night", "a grey seal pup on the slipway",
                    "fewer kittiwakes than in any year since counts began", "an owl roosting in the oil store"],
    }),
    ("Incidents at Sea", [
        "The October grounding", "Man overboard in the channel", "Lessons for the next season"], {
        "thing": ["the distress call", "the search pattern", "the lifeboat launch", "the incident report",
                  "the searchlight", "the casualty log"],
        "action": ["relayed", "coordinated", "logged", "reviewed", "rehearsed", "timed"],
        "finding": ["a vessel aground on an ebbing tide", "a crew member recovered after eleven minutes in the water",
                    "a flare sighted but never explained", "a yacht with a failed engine drifting toward the reef",
                    "a search called off at dusk and resumed at dawn", "a radio that failed when it was needed most"],
    }),
    ("Radio and Navigation Aids", [
        "The radio beacon", "AIS and the new transponder", "Backup systems"], {
        "thing": ["the radio beacon", "the AIS transponder", "the racon", "the backup battery bank",
                  "the solar panels", "the monitoring link"],
        "action": ["tested", "replaced", "upgraded", "monitored", "reconfigured", "inspected"],
        "finding": ["a transmitter drifting off frequency", "batteries holding charge for thirty hours",
                    "a monitoring link that dropped every evening", "a racon echo too weak at eight miles",
                    "panels producing a fifth less after a winter of salt", "a firmware fault fixed remotely"],
    }),
    ("The Buildings", [
        "The tower", "The keepers' cottages", "The boundary wall and the road"], {
        "thing": ["the tower render", "the gallery rail", "the cottage roofs", "the boundary wall",
                  "the access road", "the lantern door"],
        "action": ["repainted", "repointed", "surveyed", "patched", "cleared", "replaced"],
        "finding": ["render lifting on the weather side", "a gallery rail rusted through at two posts",
                    "slates lost in the February gale", "a wall undermined by rabbits", "potholes filled with shingle",
                    "a door that no longer closed against the wind"],
    }),
]

OPENERS = [
    "On {weekday} {day} {month}, {keeper} {action} {thing} near {place} and found {finding}.",
    "{keeper} {action} {thing} early in {month}; the log records {finding}.",
    "During the {month} inspection, {keeper} {action} {thing} and noted {finding}.",
    "When {vessel} passed {place} in {month}, {keeper} had just {action} {thing} and reported {finding}.",
    "It was {keeper} who first noticed {finding}, on the day {keeper2} {action} {thing} in {month}.",
    "In the second week of {month}, {keeper} and {keeper2} {action} {thing} together and found {finding}.",
]
FOLLOWERS = [
    "The repair took {n} hours and cost {cost} from the maintenance budget.",
    "A note in the margin says the work was finished before lighting-up time at {time} on day {day}.",
    "{keeper2} checked the result on the morning of day {day} and signed the log at {time}.",
    "The same fault had last been seen {n} years earlier, according to the ledger for {month2}.",
    "No ship reported any change in the light during the {n} hours of work, not even {vessel}.",
    "The parts came out on {vessel} {n} days later, in time for the {month2} inspection.",
    "{keeper2} suggested a check every {n} weeks, and the rota was changed from {month2} onwards.",
    "A photograph of the {detail} went to the district engineer with report number {report}.",
    "The keepers agreed that {finding2} was the more pressing problem for {month2}.",
    "By {weekday} the readings near {place} were back within the limits set by the district office.",
    "{keeper2} blamed the weather of {month2}, when {n} gales crossed the cape.",
    "The station diary adds that {vessel} sounded her horn twice in thanks on day {day} of {month2}.",
]
# Sentences about the paragraph's own subject, so each chapter reads differently.
DETAILED = [
    "The trouble with {thing} turned out to be {finding2}.",
    "{keeper2} had warned in {month2} that {thing} would need attention before the winter.",
    "Before the work {thing} showed {finding2}; afterwards the log notes only routine wear.",
    "The manual for {thing} says nothing about {finding2}, so {keeper2} wrote a page of notes on it.",
    "Nobody at {place} could remember {thing} giving this much trouble since {year}.",
    "A second look at {thing} on day {day} of {month2} found {finding2} as well.",
    "{keeper2} {action2} {thing} again in {month2} to be sure, and found nothing new.",
]
CLOSERS = [
    "Altogether the year brought {n} entries of this kind near {place}, most of them minor.",
    "The district engineer's visit in {month2} confirmed the judgement of {keeper2}.",
    "Nothing in the log for {month2} suggests the light was ever out of service because of it.",
    "The matter is listed again in next year's plan, under item {n} of report {report}.",
    "{keeper2} wrote that the station had learnt more from {finding2} than from any manual.",
]
DETAILS = ["damaged part", "corroded fitting", "repaired section", "logbook page", "measurement sheet", "work site"]


def fill(template, rng, theme):
    vocab = theme[2]
    keeper, keeper2 = rng.sample(KEEPERS, 2)
    month, month2 = rng.sample(MONTHS, 2)
    finding, finding2 = rng.sample(vocab["finding"], 2)
    return template.format(
        weekday=rng.choice(WEEKDAYS), day=rng.randint(1, 28), month=month, month2=month2, keeper=keeper,
        keeper2=keeper2, action=rng.choice(vocab["action"]), thing=rng.choice(vocab["thing"]),
        place=rng.choice(PLACES), vessel=rng.choice(VESSELS), finding=finding, finding2=finding2,
        action2=rng.choice(vocab["action"]), year=rng.randint(1921, 2019), n=rng.randint(2, 19), cost=f"{rng.randint(3, 95) * 10} crowns", time=f"{rng.randint(16, 21)}:{rng.choice(['05', '20', '35', '50'])}",
        detail=rng.choice(DETAILS), report=f"{rng.choice('ABCDEFGH')}-{rng.randint(100, 999)}")


def paragraph(rng, theme):
    sentences = [fill(rng.choice(OPENERS), rng, theme)]
    templates = rng.sample(DETAILED, rng.randint(2, 3)) + rng.sample(FOLLOWERS, rng.randint(1, 3))
    rng.shuffle(templates)
    for template in templates:
        sentences.append(fill(template, rng, theme))
    if rng.random() < 0.3:
        sentences.append(fill(rng.choice(CLOSERS), rng, theme))
    text = " ".join(sentences)
    return text[0].upper() + text[1:]


def table(rng, title):
    rows = ["| Month | High water (m) | Low water (m) | Fog hours | Gale days |", "|---|---:|---:|---:|---:|"]
    for month in rng.sample(MONTHS, 4):
        rows.append(f"| {month} | {rng.uniform(3.8, 5.6):.2f} | {rng.uniform(0.2, 1.4):.2f} | {rng.randint(0, 140)} | {rng.randint(0, 12)} |")
    return f"Readings for {title.lower()}, selected months:\n\n" + "\n".join(rows)


def interludes():
    """Passages from the project's corpora, each introduced as a document the keepers kept."""
    prose = (ROOT / "corpora/prose/en.txt").read_text(encoding="utf-8").split("\n\n")
    sections, current = [], []
    for block in prose:
        is_title = "\n" not in block and len(block) < 40 and len(block.split()) >= 2 and not any(c in block for c in ".,!?\"'")
        if is_title and current:
            sections.append(current)
            current = []
        current.append(block)
    sections.append(current)
    out = []
    for section in sections:
        title, body = section[0], "\n\n".join(section[1:])
        out.append(f"### From the station library: {title}\n\n{body}")
    chat = (ROOT / "corpora/chat/transcript.txt").read_text(encoding="utf-8").strip()
    out.append("### From the help desk: a conversation about tide readings\n\n" + chat.replace("\n", "\n\n"))
    readme = (ROOT / "corpora/code/sample.md").read_text(encoding="utf-8").strip().replace("\n#", "\n####")
    out.append("### The tidewatch tool, as documented by its author\n\n" + readme.lstrip("# ").replace("tidewatch\n", "tidewatch\n\n", 1))
    return out


def document(pages, seed):
    rng = random.Random(seed)
    target = pages * CHARS_PER_PAGE
    extra = interludes()
    parts = ["# The Northern Cape Light Station: A Keeper's Yearbook",
             "This yearbook gathers a year of work at the light station on the northern cape: the lens and the fog "
             "signal, the tides and the weather, the people who kept the watch and the visitors who came to see it. "
             "Each chapter is drawn from the station log, with readings and the documents the keepers kept."]
    size = sum(len(p) for p in parts)
    chapter = 0
    while size < target:
        theme = THEMES[chapter % len(THEMES)]
        chapter += 1
        block = [f"## Chapter {chapter}: {theme[0]}" + ("" if chapter <= len(THEMES) else f" (continued, part {chapter // len(THEMES) + 1})")]
        for section in theme[1]:
            block.append(f"### {section}")
            for _ in range(rng.randint(2, 4)):
                block.append(paragraph(rng, theme))
            if rng.random() < 0.35:
                block.append(table(rng, section))
        if extra and chapter % 2 == 0:
            block.append(extra.pop(0))
        for piece in block:
            parts.append(piece)
            size += len(piece) + 2
        if size >= target:
            break
    text = "\n\n".join(parts)
    return text[:target].rsplit("\n\n", 1)[0] if len(text) > target * 1.05 else text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=50, help=f"pages of about {CHARS_PER_PAGE} characters (default 50)")
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (default 2026)")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    args = parser.parse_args()
    if args.pages < 1:
        parser.error("--pages must be at least 1")
    text = document(args.pages, args.seed) + "\n"
    if args.output:
        pathlib.Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
