"""Deals the API tests play with: explicit hands, so they hold whatever the shuffle does.

SEED1 is the deal ``/deal`` answers for seed 1 (tests/api/test_views.py checks it);
X, Y and Z are built for rules.md §3 (exposed pig, example 3.1), §4 (two decks, pair
lead) and the first-trick ban. FULL_PLAYS plays SEED1 to the end, always the
first legal move."""

SEED1 = [
    ['SQ', 'S5', 'H7', 'S4', 'H4', 'D9', 'S6', 'HA', 'S8', 'D2', 'D10', 'D3', 'C8'],
    ['CA', 'D4', 'DK', 'S10', 'CK', 'DQ', 'H2', 'S9', 'C4', 'CJ', 'D8', 'S7', 'SJ'],
    ['C10', 'H9', 'D7', 'HQ', 'D5', 'C3', 'CQ', 'S3', 'C9', 'H6', 'SA', 'C7', 'H8'],
    ['HJ', 'H3', 'S2', 'C6', 'DA', 'C5', 'DJ', 'HK', 'H10', 'C2', 'D6', 'SK', 'H5'],
]

# rules.md §3, example 3.1: seat 0 will expose SQ and holds SQ S9 S3; seat 1 leads S5 (a later deal).
X = [
    ['SQ', 'S9', 'S3', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'D2', 'D3', 'D4', 'D5'],
    ['S5', 'S2', 'S4', 'S6', 'HA', 'HK', 'HQ', 'HJ', 'H10', 'H9', 'D6', 'D7', 'D8'],
    ['S7', 'S8', 'S10', 'SJ', 'H8', 'D9', 'D10', 'DJ', 'DQ', 'DK', 'DA', 'C2', 'C3'],
    ['SK', 'SA', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10', 'CJ', 'CQ', 'CK', 'CA'],
]

# Two decks: seat 1 holds SK SK S7 and no other spade (rules.md §4, pair follow rule 1); seat 0 leads S9 S9.
Y = [
    ['S9', 'S9', 'S2', 'S2', 'S3', 'S3', 'S4', 'S4', 'S5', 'S5', 'S6', 'S6', 'S7',
     'S8', 'S8', 'S10', 'S10', 'SJ', 'SJ', 'SQ', 'SQ', 'SA', 'SA', 'CK', 'CA', 'CA'],
    ['SK', 'SK', 'S7', 'H3', 'H2', 'H2', 'H3', 'H4', 'H4', 'H5', 'H5', 'H6', 'H6',
     'H7', 'H7', 'H8', 'H8', 'H9', 'H9', 'H10', 'H10', 'HJ', 'HJ', 'HQ', 'HQ', 'HK'],
    ['HK', 'HA', 'HA', 'D2', 'D2', 'D3', 'D3', 'D4', 'D4', 'D5', 'D5', 'D6', 'D6',
     'D7', 'D7', 'D8', 'D8', 'D9', 'D9', 'D10', 'D10', 'DJ', 'DJ', 'DQ', 'DQ', 'DK'],
    ['DK', 'DA', 'DA', 'C2', 'C2', 'C3', 'C3', 'C4', 'C4', 'C5', 'C5', 'C6', 'C6',
     'C7', 'C7', 'C8', 'C8', 'C9', 'C9', 'C10', 'C10', 'CJ', 'CJ', 'CQ', 'CQ', 'CK'],
]

# First-trick ban: seat 0 is void in clubs and holds SQ; seat 3 leads C2.
Z = [
    ['SA', 'SK', 'SQ', 'SJ', 'S10', 'S9', 'S8', 'H7', 'H6', 'H5', 'H4', 'H3', 'H2'],
    ['S7', 'S6', 'S5', 'S4', 'S3', 'S2', 'HA', 'HK', 'HQ', 'HJ', 'H10', 'H9', 'H8'],
    ['DA', 'DK', 'DQ', 'DJ', 'D10', 'D9', 'D8', 'D7', 'D6', 'D5', 'D4', 'D3', 'D2'],
    ['C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10', 'CJ', 'CQ', 'CK', 'CA'],
]

FULL_PLAYS = [
    ['C2'], ['C8'], ['C4'], ['C3'],
    ['S4'], ['S7'], ['S3'], ['S2'],
    ['S9'], ['SA'], ['SK'], ['S5'],
    ['H6'], ['H3'], ['H4'], ['H2'],
    ['H8'], ['H5'], ['H7'], ['S10'],
    ['H9'], ['H10'], ['HA'], ['SJ'],
    ['S6'], ['D4'], ['HQ'], ['HJ'],
    ['S8'], ['D8'], ['D5'], ['HK'],
    ['SQ'], ['DQ'], ['D7'], ['D6'],
    ['D2'], ['DK'], ['C7'], ['DJ'],
    ['CJ'], ['C9'], ['C5'], ['D3'],
    ['CK'], ['C10'], ['C6'], ['D9'],
    ['CA'], ['CQ'], ['DA'], ['D10'],
]
