"""The browser the benches, the screenshots and the browser tests drive: Debian's Chromium
(``apt-get install chromium``), through Playwright, at a phone's size (a 390 x 844 CSS px
viewport, the width of today's common phones)."""

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
