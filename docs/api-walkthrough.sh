#!/usr/bin/env bash
# A whole event through the REST API with curl: the README's walkthrough, runnable.
#
#   BASE=http://127.0.0.1:8000 TOKEN=<token> bash docs/api-walkthrough.sh
#
# Get a token with:  .venv/bin/python manage.py drf_create_token director
# Needs curl and jq. Creates an event named api-demo-<time> so it can run again.
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:8000}
: "${TOKEN:?set TOKEN (manage.py drf_create_token director)}"
SLUG=${SLUG:-api-demo-$(date +%s)}
# One more header for every request (behind a TLS proxy: "X-Forwarded-Proto: https").
EXTRA_HEADER=${EXTRA_HEADER:-}

api() {  # api METHOD PATH [JSON]: fail loudly on any HTTP error
    local method=$1 path=$2 body=${3:-}
    curl -sS --fail-with-body -X "$method" "$BASE/api/v1$path" ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} \
        -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" \
        ${body:+--data "$body"}
}

echo "1. Create the event (Jamaican 9-hand sets, total points, one round; players may enter)"
api POST /events/ "{\"slug\": \"$SLUG\", \"name\": \"API demo\", \"rounds_planned\": 1, \"table_entry\": \"players\"}" | jq -c .

echo "2. Register eight players"
for name in "Delroy Campbell" "Marcia Reid" "Winston Brown" "Claudette Smith" \
            "Everton Lewis" "Paulette Grant" "Rohan Thomas" "Yvonne Wright"; do
    id=$(api POST /players/ "{\"name\": \"$name\", \"country\": \"JM\"}" | jq .id)
    api POST "/events/$SLUG/entries/" "{\"player\": $id}" >/dev/null
done
api GET "/events/$SLUG/entries/" | jq -c '{count}'

echo "3. Start round 1 (202: a Celery task seats it), then read the seating"
api POST "/events/$SLUG/rounds/" '{"seed": 7}' | jq -c .
for _ in $(seq 1 50); do
    status=$(api GET "/events/$SLUG/rounds/1/" | jq -r .status)
    [ "$status" = draft ] && break
    sleep 0.2
done
api GET "/events/$SLUG/rounds/1/" | jq -c '{status, tables: [.tables[] | {number, seats: [.seats[].name]}], quality}'

echo "4. Publish the seating"
api POST "/events/$SLUG/rounds/1/publish/" | jq -c '{status}'

echo "5. Start the round's clock, give table 2 five more minutes, and announce it"
api POST "/events/$SLUG/rounds/1/clock/" '{"action": "start", "minutes": 90}' | jq -c '{state, remaining_s}'
api POST "/events/$SLUG/rounds/1/clock/" '{"action": "extend", "minutes": 5, "table": 2}' \
    | jq -c '{state, tables: [.tables[] | {number, extra_s}]}'
api POST "/events/$SLUG/announcements/" '{"text": "Table 2 started late: five more minutes"}' \
    | jq -c '{text, current}'

echo "6. Enter every hand of both tables (the players of table 2 enter hand 9 themselves, in 7)"
for table in 1 2; do
    # hand 1 was redealt once; hand 3 went down and out; hand 5 had an over-call
    api PUT "/events/$SLUG/rounds/1/tables/$table/hands/1/" '{"redeal": true}' >/dev/null
    for hand in 1 2 3 4 5 6 7 8 9; do
        out=$(( (hand - 1) % 4 + 1 ))
        doa=false; penalties='[]'
        [ "$hand" = 3 ] && doa=true
        [ "$hand" = 5 ] && penalties="[{\"seat\": $(( out % 4 + 1 )), \"kind\": \"overcall\", \"extra_calls\": 1}]"
        scores=""
        for seat in 1 2 3 4; do
            if [ "$seat" = "$out" ]; then points=0; else points=$(( 3 * seat + hand )); fi
            scores+="{\"seat\": $seat, \"points\": $points},"
        done
        body="{\"went_out\": $out, \"down_and_out\": $doa, \"scores\": [${scores%,}], \"penalties\": $penalties}"
        [ "$table/$hand" = 2/9 ] && continue
        api PUT "/events/$SLUG/rounds/1/tables/$table/hands/$hand/" "$body" >/dev/null
    done
done
api GET "/events/$SLUG/rounds/1/tables/1/hands/3/" | jq -c '{number, contract, down_and_out, version, results: [.results[] | {seat, card_points, score}]}'

echo "7. Entry at the table: seat 1 of table 2 enters hand 9 with their code, seat 2 confirms it"
codes=$(api GET "/events/$SLUG/rounds/1/codes/")
first=$(jq -r '.tables[1].seats[0].code' <<<"$codes")
second=$(jq -r '.tables[1].seats[1].code' <<<"$codes")
player() {  # player CODE METHOD PATH [JSON]: a player's request, no token, their code
    local code=$1 method=$2 path=$3 body=${4:-}
    curl -sS --fail-with-body -X "$method" "$BASE/api/v1$path" ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} \
        -H "X-Player-Code: $code" -H "Content-Type: application/json" ${body:+--data "$body"}
}
hand9="/events/$SLUG/rounds/1/tables/2/hands/9/proposal/"
player "$first" PUT "$hand9" '{"went_out": 1, "scores": [{"seat": 2, "points": 15}, {"seat": 3, "cards": "JK AS 10H"}, {"seat": 4, "points": 21}]}' | jq -c '{state, entered_by, confirmed_by}'
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE/api/v1${hand9}confirm/" \
    ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} -H "X-Player-Code: $first")
echo "the same player confirming their own entry -> HTTP $code"
[ "$code" = 409 ]
player "$second" POST "${hand9}confirm/" | jq -c '{state, entered_by, confirmed_by, version: .hand.version, results: [.hand.results[] | {seat, score}]}'
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE/api/v1${hand9}confirm/" \
    ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} -H "X-Player-Code: NOTA-CODE")
echo "a wrong code -> HTTP $code"
[ "$code" = 403 ]

echo "8. A stale correction is refused with 412, and nothing is written"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$BASE/api/v1/events/$SLUG/rounds/1/tables/1/hands/2/" \
    ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" -H 'If-Match: "99"' \
    --data '{"went_out": 2, "scores": [{"seat": 1, "points": 5}, {"seat": 3, "points": 5}, {"seat": 4, "points": 5}]}')
echo "If-Match with a stale version -> HTTP $code"
[ "$code" = 412 ]

echo "9. Close the round, finish the event (the director says when) and read the standings"
api POST "/events/$SLUG/rounds/1/close/" '{}' | jq -c '{status, forced_close}'
api POST "/events/$SLUG/finish/" | jq -c '{status}'
for _ in $(seq 1 50); do
    final=$(api GET "/events/$SLUG/standings/" | jq -r .final)
    [ "$final" = true ] && break
    sleep 0.2
done
api GET "/events/$SLUG/standings/" | jq -c '{version, round, final, top: [.standings[:3][] | {rank, name: .player.name, points}]}'
[ "$final" = true ]

echo "10. Publishing from a venue: the site makes the event's link (shown once), the venue's"
echo "    publisher reads where the site stands with it and sends its changes in order"
link=$(api POST "/events/$SLUG/publishing-link/" | jq -r .link)
publisher() {  # publisher METHOD PATH [curl options...]: with the link, as the venue sends
    local method=$1 path=$2
    shift 2
    curl -sS -X "$method" "$BASE/api/v1/publishing/$path" ${EXTRA_HEADER:+-H "$EXTRA_HEADER"} \
        -H "Authorization: Link $link" "$@"
}
publisher GET "" | jq -c '{event, acknowledged}'
code=$(publisher POST changes/ -o /dev/null -w '%{http_code}' -H "Content-Type: application/json" \
    --data '{"stream": "walkthrough", "changes": [{"seq": 2}]}')
echo "a batch that does not start from the site's next change -> HTTP $code"
[ "$code" = 409 ]
code=$(publisher POST changes/ -o /dev/null -w '%{http_code}' --data 'not a batch')
echo "a batch that is not JSON -> HTTP $code"
[ "$code" = 400 ]
api DELETE "/events/$SLUG/publishing-link/"
code=$(publisher GET "" -o /dev/null -w '%{http_code}')
echo "the link, revoked -> HTTP $code"
[ "$code" = 403 ]
echo "done: $SLUG"
