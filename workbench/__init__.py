"""Boardpass's workbench: the tools that measure, show and tune the product (benches, load
tests, simulations, calibration, the evaluation's fitting, screenshots and preview images).

It imports ``app`` and nothing in ``app`` imports it, so none of it ships in the Lambda package.
Its commands run as ``python -m workbench COMMAND`` or, the same, ``python -m app COMMAND``
(the product's command line hands every command it doesn't know on to this one).
"""
