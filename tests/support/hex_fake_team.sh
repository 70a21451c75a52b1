#!/bin/bash
# A fake team for tests/hex_judge.rs: TEAM MODE. It answers every new
# state with the first empty cell (good), or breaks one rule of the judge.
team=$1 mode=$2 last=""
while true; do
  if [ -f "state_$team.txt" ]; then
    s=$(cat "state_$team.txt" 2>/dev/null)
    if [ -n "$s" ] && [ "$s" != "$last" ]; then
      last=$s
      n=$(head -n 1 <<<"$s")
      read -r -a cells < <(sed -n 2p <<<"$s")
      empty=-1 stone=-1
      for k in "${!cells[@]}"; do
        if [ "${cells[$k]}" = 0 ] && [ $empty -lt 0 ]; then empty=$k; fi
        if [ "${cells[$k]}" != 0 ] && [ $stone -lt 0 ]; then stone=$k; fi
      done
      case $mode in
        good) echo "$n $empty" > tmp_$team && mv tmp_$team "move_$team.txt" ;;
        late) sleep 30 ;;
        taken) echo "$n $stone" > "move_$team.txt" ;;
        outside) echo "$n 217" > "move_$team.txt" ;;
        malformed) echo "$n, $empty" > "move_$team.txt" ;;
        renumber) echo "$((n + 1)) $empty" > "move_$team.txt" ;;
        tampered) echo "$s" | sed '1s/.*/1/' > "state_$team.txt"; echo "$n $empty" > "move_$team.txt" ;;
        halfway) printf '%s' "$n" > "move_$team.txt"; sleep 0.005; echo " $empty" >> "move_$team.txt" ;;
      esac
    fi
  fi
  sleep 0.005
done
