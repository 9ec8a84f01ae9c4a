# 探索パネル、発見カード、フォーク、実際の障害のギャラリーと保護ルール
# (src/ui/explore_*.rs, src/ui/fork_view.rs)。
# 性質の名前 (no_answer_lost…)、ルール名 (incarnation_binding…)、
# always/sometimes/eventually、障害の種類、エージェント名、リクエスト ID、issue の参照は訳さない。

## パネル
explore-title = すべての実行を探索
explore-intro = モデル検査器です：エージェントが動くあらゆる順序、プロトコルが許すあらゆる判断、上限までのあらゆる障害を試し、実行ごとに判定します。破られた性質には、それを破る実行のうち障害が最も少なく、その中で最短のものが付きます。
explore-scenario = シナリオ
explore-scenario-label = 探索するシナリオ
explore-faults-per-run = 実行あたりの障害数
explore-fault-kinds = 障害の種類
explore-depth = 深さの上限
explore-decisions = 台本外の判断
explore-decisions-label = 実行あたりの台本外の判断数
explore-withhold = レスポンスを保留してよい
explore-search = 探索方法
explore-search-label = 探索戦略
explore-bfs = 幅優先（最短の例）
explore-dfs = 深さ優先
explore-simulate = ランダム実行（2,000 回）
explore-workers = ワーカー
explore-workers-all-cores = ワーカー { $count } 個でこの端末のすべてのコアを使います：探索中はページの反応が遅くなることがあります。
explore-start = 開始
explore-stop = 停止
explore-fork-on-screen = 画面上の実行をフォーク
explore-faults-not-whole = 障害数は整数にしてください
explore-depth-not-whole = 深さの上限は整数にしてください
explore-decisions-not-whole = 判断数の上限は整数にしてください

## カウンターと状態
explore-state-running = 探索中… ワーカー { $count } 個中 { $done } 個が完了
explore-state-shrinking = 例を最少の障害まで絞り込み中：再探索（上限：{ $faults }）… ワーカー { $count } 個中 { $done } 個が完了
explore-state-done = 完了：上限内のすべての実行を探索しました。
explore-state-done-cut = 完了。ただし深さまたは状態数の上限で探索が打ち切られました：「不明」は、探索した範囲に例がなかったという意味です。
explore-state-stopped = 停止しました：ワーカーは終了し、判定はありません。
explore-state-failed = 探索に失敗しました：{ $error }
explore-progress = 探索の進み具合
explore-counter-states = 状態
explore-counter-rate = 状態/秒
explore-counter-distinct = 異なる状態
explore-counter-depth = 深さ
explore-counter-frontier = フロンティア
explore-counter-seconds = 秒

## 判定
explore-outcomes = { $runs } 回の実行が { $count } 通りの異なる形で終わります。
explore-verdicts = 性質の判定
verdict-holds = 成立
verdict-fails = 違反
verdict-unknown = 不明
explore-counterexample = 反例
explore-witness = 実例
explore-faults = { $count ->
    [0] 障害なし
   *[other] 障害 { $count } 件
}
explore-open-example = { $kind }を開く
explore-open-example-label = { $property } の{ $kind }を開く（選択 { $choices } 回、{ $faults }）
explore-which-properties = 一覧に出す性質

## 発見カード
explore-broken-title = 破られた性質：{ $property }
explore-shown-title = 示された性質：sometimes { $property }
explore-finding-text = 起きたこと：{ $detail }。性質：{ $statement }見つかった最短の実行は、選択 { $choices } 回と{ $faults }です。
explore-reported-as = 本番のエージェントチームツールで { $issues } として報告されています。
explore-not-found-on-rebuilt = 実行は再構築されましたが、このバージョンではその実行でこの性質が破られていません
explore-marked = それが起きたイベント #{ $seq } にカーソルがあります。
explore-path-summary = この実行の選択 { $count } 回（どれでもフォークできます）
explore-link = この実行へのリンク
explore-copy-link = リンクをコピー
explore-on-screen-title = 探索器のパスとしてのこの実行：選択 { $count } 回
explore-on-screen-text = 下の各ステップは、この実行が行った選択です：次に誰が動いたか、またはモデルが何と答えたか。どれかをフォークすると別の分岐をたどり、二つの実行を並べて見られます。

## 実行の選択
choice-turn = 次は { $agent }
choice-turn-fault = 次は { $agent }、そのメッセージに { $fault } の障害
choice-reply = { $agent } のモデル：{ $label }
choice-expire = リクエスト { $request } は応答されないまま期限切れになる（期限が過ぎる）

## バナーに出るエラー
explore-not-started = { $error }。探索は始まりませんでした
explore-err-scenario = 探索できるシナリオ '{ $id }' はありません
explore-err-workers = ワーカー { $count } 個：1 から { $max } の間で選んでください
explore-err-faults = 実行あたり障害 { $count } 件：0 から { $max } の間で選んでください
explore-err-no-fault-kind = 障害が許されていますが、種類が一つも選ばれていません：drop、duplicate、delay、reorder のいずれかにチェックを入れるか、障害数を 0 にしてください
explore-err-zero = { $bound }は 1 以上にしてください
explore-err-too-large = { $bound }が { $count } です：{ $max } 以下にしてください
explore-bound-depth = 深さの上限
explore-bound-states = 状態数の上限
explore-bound-decisions = 台本外の判断の上限
explore-bound-runs = ランダム実行の回数
explore-err-bad-message = ワーカーから読めないメッセージが届きました：{ $error }
explore-link-not-rebuilt = このリンクの実行を再構築できませんでした：{ $error }。画面上の実行は変わりません
explore-link-bad-settings = リンクの探索器設定が正しくありません：{ $error }
explore-fork-no-snapshot = フォークできるのはスクリプトモデルでのシナリオの実行だけです。この実行はインポートされたか、どう始まったかの記録がありません
explore-fork-not-reproducible = フォークできるのはスクリプトモデルでの手を加えていないシナリオの実行だけです（他のモデルなし、手動操作なし）
explore-fork-file-run = フォークできるのは、スクリプトモデルで実行したプロトコルファイルのチームの手を加えていない実行だけです（チーム自身のプロンプトのみ、手動操作なし、他のモデルなし）。プロトコル画面で「チームを実行」を押し、その実行をフォークしてください
explore-fork-fault-rules = 障害ルールのある実行はフォークできません：障害は探索器が自分で置きます（「探索」で実行あたりの障害数を設定してください）
explore-fork-failed = フォークを最後まで実行できませんでした：{ $error }

## フォーク
fork-button = フォーク…
fork-at-label = 選択 { $n } でフォーク：{ $choice }
fork-none-open = ここでは他に選べる選択がありませんでした。
fork-others-label = ステップ { $n } の他の選択
fork-instead = 代わりに：{ $choice }
fork-title = 選択 { $n } でのフォーク
fork-summary = 元：「{ $original }」。分岐：「{ $branch }」。{ $summary }
fork-share = 二つは { $count } 個のイベントを共有し、そこで分かれます。
fork-same = 二つの実行は同じです：この選択は記録される内容を何も変えません。
fork-table-caption = 元の実行と分岐を、イベントごとにリクエストでそろえて並べたもの
fork-original = 元
fork-branch = 分岐
fork-no-counterpart = 対応なし
fork-mark-header = 違い
fork-first-difference = 最初の違い ▶
fork-open-original = 元の実行を図で開く
fork-open-branch = 分岐を図で開く
fork-side-original = 元の実行
fork-side-branch = 分岐
fork-side-title = 選択 { $n } でのフォークの{ $side }
fork-side-text = 選択 { $n } で、{ $side }は「{ $choice }」を選びました。カーソルは二つの実行が最初に異なるイベントにあります。

## 実際の障害のギャラリー
gallery-title = 実際の障害のギャラリー
gallery-intro = Claude Code のエージェントチームで報告された障害を、それを防ぐルールをオフにしてここで再現します。「再現」で最短の実行を見つけ、次にルールをオンにすると、代わりにルールが何をするかが見られます。
gallery-breaks = 破る性質：
gallery-reproduce = 再現
gallery-rule-on = ルールをオン：
gallery-rule-summary = これを防ぐルール
gallery-reproduced-title = 再現：{ $title }
gallery-prevented-title = 防止：{ $title }
gallery-prevented-text = ルール { $rule } をオンにすると、同じ選択でも { $property } はもう破られません。{ $description }続いて「探索」パネルで、ルールをオンにしたすべての実行を探索します。
gallery-not-reproduced = 探索は上限内で「{ $title }」を再現できませんでした
gallery-rule-on-failed = ルールをオンにした実行を再生できませんでした：{ $error }

## ギャラリーの項目と保護ルール
gallery-stale-shutdown-after-respawn-title = 古いシャットダウンリクエストが再生成されたチームメイトをシャットダウンさせる
gallery-stale-shutdown-after-respawn-caption = 報告：チームメイトに送られたシャットダウンリクエストにレスポンスがないままチームメイトが再生成され、新しいチームメイトが古いリクエストを読んでシャットダウンしました。リクエストはもう存在しない実行に宛てたもので、別の実行がそれに答えました：これは「レスポンスは再起動をまたがない」を破ります。ここでは alice がレスポンスを保留し、リーダーが彼女を再び生成し、再起動した alice が古いリクエストを見つけて承認します。
gallery-acting-after-approving-shutdown-title = チームメイトがシャットダウンを承認した後も動き続ける
gallery-acting-after-approving-shutdown-caption = 報告：チームメイトがシャットダウンリクエストを承認したのに終了せず、生きたままターンを取り続けました。シャットダウンの承認は止まるという約束です：これは「シャットダウンを承認したチームメイトは新たなモデル呼び出しをしない」を破ります（最後には「承認されたシャットダウンはすべてシャットダウンに至る」も）。ここでは alice がリーダーのリクエストを承認し、ループを抜けさせるものが何もないので、再びモデルを呼び出します。
gallery-lead-answers-its-own-request-title = リーダーが自分の送ったシャットダウンリクエストを承認する
gallery-lead-answers-its-own-request-caption = 報告：シャットダウンリクエストが、宛先のチームメイトではなくリーダーによって答えられ、リーダーが自分自身の終了を承認しました。リクエストに答えてよいのは宛先のエージェントだけです：これは「宛先だけが答える」を破ります。ここではリーダーが alice にシャットダウンを求め、alice を待たずにそのリクエストに自分で答えます。
gallery-shutdown-never-answered-title = シャットダウンリクエストに誰も答えない
gallery-shutdown-never-answered-caption = 報告：チームメイトが作業を終えてアイドルになりました。リーダーのシャットダウンリクエストはそのチームメイトに届きましたが、レスポンスは返らず、チームはリクエストが pending のままアイドル状態で止まりました（いつもではなく、ときどき）。これは「リクエストが pending の間に実行が静止しない」を破ります。ここでは、リーダーのリクエストが届く前に alice が作業を終えてアイドルになり、リクエストを読むために彼女を起こすものが何もないので、全員が待ったまま静止します。
rule-incarnation_binding-description = 各リクエストは作成時に宛先のインカネーション（何回目の起動か）を記録し、チームはそれより後のインカネーションからのレスポンスを古いリクエストへのものとして拒否します（src/protocol/team.rs の TeamState::check_answer）。
rule-addressee_only-description = トラッカーはリクエストの宛先のエージェントからのレスポンスだけを受け付け、他の誰のレスポンスも拒否します（src/protocol/tracker.rs の Tracker::check_answer）。
rule-exit_after_approval-description = シャットダウンを承認した（あるいは手動で代わりに承認された）チームメイトは、今のターンを終えたら、モデルを再び呼び出さずにループを抜けます（src/runtime/loops.rs の teammate_after と teammate_leaves）。
rule-wake_on_message-description = アイドルのチームメイトにメッセージが届くとそれを起こし、チームメイトは次のモデル呼び出しの前にインボックスを読み切ります。だからアイドルのチームメイトに送ったリクエストは読まれ、答えられます（src/runtime/world.rs の World::wake）。

## 各性質が言うこと
property-no_answer_to_unknown_request = 誰も作成していない request_id を名指すレスポンスはありません。
property-no_second_answer = 二度答えられるリクエストはありません：一度承認または拒否されたら、そのまま変わりません。
property-only_the_addressee_answers = リクエストに答えるのは、その宛先のエージェントだけです。
property-no_answer_across_restart = レスポンスは再起動をまたぎません：チームメイトの以前の実行に宛てたリクエストに、新しい実行が答えることはありません。
property-no_request_across_restart = リクエストは再起動をまたぎません：再び起動されたチームメイトが、以前の実行に宛てたリクエストを読むことはありません（incarnation_binding がレスポンスを拒否しますが、そもそもリクエストが届くべきではありません）。
property-no_message_to_exited_teammate = シャットダウンしたチームメイトにメッセージを送る者はいません。
property-no_answer_lost = トラッカーが記録したレスポンスが、リクエストした側へ届く途中で失われることはありません。
property-no_duplicate_delivered = 同じレスポンスが二度読まれることはありません。
property-no_action_after_shutdown_approved = シャットダウンを承認したチームメイトは新たなモデル呼び出しをしません：今のターンを終え、ループを抜けます。
property-no_work_before_plan_approval = プランモードのチームメイトは、プランが承認されるまでファイルを一つも変更しません。
property-every_request_has_a_responder = すべてのリクエストは、それに答えるツールを持つ誰かに宛てられています。
property-some_request_approved = 承認されたリクエストに至る実行が存在します。
property-some_request_rejected = 拒否されたリクエストに至る実行が存在します。
property-requests_settle = すべてのリクエストは決着します：最後は承認か拒否で終わり、pending のままにはなりません。
property-approved_shutdowns_exit = シャットダウンを承認したチームメイトは、すべてシャットダウンに至ります。
property-no_quiet_while_pending = リクエストがまだ pending の間に、実行が静止する（全エージェントがアイドルになる）ことはありません。
property-runs_end = すべての実行は終わります：実行が続いているのに何も動けない状態はありません。
property-no_gated_tool_while_closed = ゲートが閉じている間、そのゲートが守るツールは実行されません：プロトコルがゲートを開くまで、ランタイムが拒否します。
property-no_answer_after_expiry = 期限を過ぎたリクエストには誰も答えません：期限切れのリクエストは拒否され、誰も答えません。

## Scenarios only the explorer lists (their titles, looked up as scenario-<id>-title like the others)
scenario-without-protocols-title = プロトコルなし、次にあり
scenario-twins-title = 双子：二人のコーダー、どちらもシャットダウン
scenario-respawn-title = 再生成：alice にシャットダウンを求め、その後再び生成
explore-err-file = プロトコルファイルのチームは探索できません：{ $error }
explore-file-team = { $name }（あなたのファイル）
explore-file-broken-title = ファイルの性質 { $property } がこの実行で破られます
explore-file-shown-title = ファイルの性質 { $property } がこの実行で起こります
explore-file-finding-text = { $detail }（{ $faults }、選択 { $count } 回。）
explore-file-verdicts = ファイル自身の性質
explore-capped-answers = プロトコル '{ $name }' のレスポンスは { $count } 通りあります（承認か拒否 × レスポンスの各列挙フィールド）。探索はレスポンスごとにスクリプトのもの以外を最大 { $cap } 通り、変更の少ないものから試すので、このファイルでの探索はその一部しか扱いません。
gallery-files-title = それに答えるプロトコルファイル
gallery-files-intro = ファイルとして書かれたプロトコル（プロトコル画面で開けます）：ワンクリックでそのチームを図の上で実行し、探索します。
gallery-file-breaks = 探索が破るもの：
gallery-file-holds = 探索で成り立つと示されるもの：
gallery-file-show = 実行して探索
gallery-file-show-label = 実行して探索：{ $title }
gallery-file-deadline-retry-title = 失われたシャットダウンの返答でリクエストが永遠に保留になる
gallery-file-deadline-retry-caption = 報告：シャットダウンリクエストに返答がなく、チームはリクエストが保留のまま待機し続けました。レッスンのプロトコルでは、失われた返答がまさにそうさせます。このファイルはリクエストに期限と 1 回の再試行を与えます：そのチームはすべての返答を落とし、探索（実行ごとにもう 1 通メッセージを落とす）は "every_shutdown_settles" がすべての実行で成り立つことを示します：返答がなければリクエストは期限切れになり、もう一度送られます。
gallery-file-permission-no-responder-title = 誰も答えられない許可リクエスト
gallery-file-permission-no-responder-caption = 報告：チームメイトは編集の前に許可を求める必要がありましたが、それを与えられるものがなく、リクエストは永遠に保留のままでした。ローダーはそのようなプロトコルを拒否します（responder_required）；このファイルはその規則をオフにし、探索は carol が依頼し、そのリクエストが保留のまま全員が静かになる実行を見つけます：「リクエストが保留中に実行が静かになることはない」を破ります。
gallery-file-task-claim-title = 2 人のチームメイトが同じタスクを持つ
gallery-file-task-claim-caption = 多くのチームで報告：2 つのエージェントがどちらもタスクを自分のものだと思い、同じ作業をしました。ここでは ann と ben がリーダーにタスクを申請します；申請プロトコルには 2 回目の承認を拒むものがないため、性質 "one_owner_per_task" はリーダー次第です。探索はリーダーに 1 回だけ台本を外れさせ、ben の parser の申請も承認する実行を見つけます。
