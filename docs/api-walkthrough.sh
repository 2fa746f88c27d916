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

api() {  # api METHOD PATH [JSON]: fail loudly on any HTTP error
    local method=$1 path=$2 body=${3:-}
    curl -sS --fail-with-body -X "$method" "$BASE/api/v1$path" \
        -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" \
        ${body:+--data "$body"}
}

echo "1. Create the event (Jamaican 9-hand sets, total points, one round)"
api POST /events/ "{\"slug\": \"$SLUG\", \"name\": \"API demo\", \"rounds_planned\": 1}" | jq -c .

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

echo "5. Enter every hand of both tables"
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
        api PUT "/events/$SLUG/rounds/1/tables/$table/hands/$hand/" "$body" >/dev/null
    done
done
api GET "/events/$SLUG/rounds/1/tables/1/hands/3/" | jq -c '{number, contract, down_and_out, version, results: [.results[] | {seat, card_points, score}]}'

echo "6. A stale correction is refused with 412, and nothing is written"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$BASE/api/v1/events/$SLUG/rounds/1/tables/1/hands/2/" \
    -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" -H 'If-Match: "99"' \
    --data '{"went_out": 2, "scores": [{"seat": 1, "points": 5}, {"seat": 3, "points": 5}, {"seat": 4, "points": 5}]}')
echo "If-Match with a stale version -> HTTP $code"
[ "$code" = 412 ]

echo "7. Close the round, finish the event (the director says when) and read the standings"
api POST "/events/$SLUG/rounds/1/close/" '{}' | jq -c '{status, forced_close}'
api POST "/events/$SLUG/finish/" | jq -c '{status}'
for _ in $(seq 1 50); do
    final=$(api GET "/events/$SLUG/standings/" | jq -r .final)
    [ "$final" = true ] && break
    sleep 0.2
done
api GET "/events/$SLUG/standings/" | jq -c '{version, round, final, top: [.standings[:3][] | {rank, name: .player.name, points}]}'
[ "$final" = true ]
echo "done: $SLUG"
