# キャプション: 実行の各ステップをレッスンの言葉で (src/ui/captions.rs)。
# プロトコル識別子（メッセージ型、ツール名、request_id、pending、approved、rejected、フィールド名）はそのまま。

quote = 「{ $text }」
list-sep = 、
list-and = { $init }と{ $last }
who-lead = リーダー
who-lead-start = リーダー
whose-lead = リーダーの
whose-lead-start = リーダーの
whose-name = { $name }の

cap-said = { $field }：「{ $text }」。
cap-said-ended = { $field }：「{ $text }」
cap-no-text = （テキストなし）
cap-messages = { $count ->
    [0] メッセージなし
   *[other] メッセージ { $count } 件
}
cap-more = ほか{ $messages }
cap-msg-with-id = { $from }からの { $msg_type } { $id }
cap-msg = { $from }からの { $msg_type }

cap-nothing-title = まだ何もありません
cap-nothing-text = シナリオを選ぶか、リーダーへのプロンプトを入力してください。実行の各ステップをここで説明します。
cap-before-title = 最初のイベントの前
cap-before-text = この実行には { $count } 個のイベントがあります。「次へ」を押すと、リーダーとチームメイトを一歩ずつ見られます。

cap-run-started-title = 実行開始
cap-run-started-text = ユーザーがリーダーにプロンプトを渡します：{ $prompt }。リーダーはエージェントループを開始します。
cap-run-finished-title = 実行終了
cap-run-finished-text = チームは静かになりました：どのエージェントにも残りのターンはありません。
cap-run-finished-quiet = チームは静かになりました：誰も作業していません。
cap-run-finished-working = チームは静かになりましたが、{ $names } はまだ作業中のままです。
cap-run-finished-read = 未読メッセージの残るインボックスはありません。
cap-run-finished-inbox = { $whose }インボックスに{ $messages }
cap-run-finished-unread = まだ未読：{ $inboxes }。
cap-run-finished-settled = すべてのリクエストはトラッカー上で最終状態にあります。
cap-run-finished-pending = トラッカー上で { $count } 件のリクエストがまだ pending のままです。

cap-plan-mode = プランモードで動作します。ランタイムが実行をゲーティングするので、{ $name } はワークスペースを変更する前に、リーダーにプランを承認してもらう必要があります。
cap-restarts-title = { $name } が再起動
cap-restarts-text = リーダーが { $name } を { $role } として再び起動します：ループの新しい実行（新しいインカネーション）です。以前の実行宛てのリクエストに、{ $name } はもう答えられません。
cap-spawned-title = { $name } を生成
cap-spawned-text = リーダーが { $name } を { $role } として生成します。{ $name } は working になり、自分のインボックスを持ちます。

cap-status-shutdown-title = { $name } がシャットダウン
cap-status-shutdown-text = { $name } がループを抜けます：ステータス { $from } → shutdown。ライフラインが終わります（×）。これ以降 { $name } に送られたメッセージが読まれることはありません。
cap-status-idle-title = { $name } が idle に
cap-status-idle-text = { $name } はこのターンでやることがなくなりました：{ $from } → idle。インボックスにメッセージが届いて起こされるのを待ちます。
cap-status-working-title = { $name } が working に
cap-status-working-text = { $name } にまた仕事ができました：{ $from } → working。

cap-inbox-title = インボックス読み取り
cap-inbox-one = （{ $item }）
cap-inbox-many = （{ $items }）
cap-inbox-text = { $who_start }がインボックスを読みます：{ $messages }{ $what }。インボックスは再び空になります。
cap-inbox-text-lead = { $who_start }が自分のインボックスを読みます：{ $messages }{ $what }。インボックスは再び空になります。
cap-inbox-next = { $who_start }はそれぞれを request_id で照合して処理します。

cap-shutdown-requested-title = シャットダウンをリクエスト
cap-shutdown-requested-text = { $who_start }が { $addressee } にシャットダウンを求めます。リクエスト { $id } が作成され、{ $addressee } が答えるまで pending です：shutdown_requests[{ $id }] = {"{"}target: { $addressee }, status: pending{"}"}。
cap-plan-submitted-title = プランを提出
cap-plan-submitted-text = { $requester }が承認を求めてプランを提出します：{ $plan }。{ $reviewer }がレビューするまで、リクエスト { $id } は pending です。それまで{ $requester }はプランを実行してはいけません。

cap-moved = トラッカー上で { $from } → { $to } に遷移します
cap-shutdown-approved-title = シャットダウン承認
cap-shutdown-approved-text = { $by_start }が { $id } を承認します：{ $moved }。{ $by_start }はこのターンを終えてからループを抜けます。
cap-shutdown-rejected-title = シャットダウン拒否
cap-shutdown-rejected-text = { $by_start }が { $id } を拒否します：{ $moved }。{ $by_start }は作業を続けます。リーダーは新しいリクエストでもう一度頼めます。
cap-plan-approved-title = プラン承認
cap-plan-approved-text = { $by_start }が{ $whose }プラン { $id } を承認します：{ $moved }。ゲートが開きます：{ $requester }はこれでプランを実行できます。
cap-plan-approved-text-anon = { $by_start }がプラン { $id } を承認します：{ $moved }。チームメイトはこれで先に進めます。
cap-plan-rejected-title = プラン拒否
cap-plan-rejected-text = { $by_start }が{ $whose }プラン { $id } を拒否します：{ $moved }。{ $requester }はそれを実行してはいけません。修正して新しいプランを提出できます。
cap-plan-rejected-text-anon = { $by_start }がプラン { $id } を拒否します：{ $moved }。チームメイトはそれを実行してはいけません。
cap-stale-transition = 注意：{ $id } は{ $whose }再起動前の実行に宛てたものでした。古いレスポンスです。

cap-model-called-title = モデル呼び出し
cap-model-called-text = { $who_start }がここまでの会話でモデルを呼び出し、返答を待ちます（ライフライン上のアクティベーションバー）。
cap-model-replied-title = モデルの返答
cap-model-replied-text = { $whose_start }モデルが返答します（{ $tokens } トークン、{ $stop_reason }）：{ $next }。
cap-model-next-tools = ツール呼び出しを求めており、ループが次にそれを実行します
cap-model-next-end = ターンが終わります
cap-model-says = 発言内容：{ $quote }。
cap-model-failed-title = モデル呼び出し失敗
cap-model-failed-text = { $whose_start }モデル呼び出しが失敗しました：{ $error }。{ $who_start }はこのターンを中断します。

cap-tool-refused-title = ツール拒否
cap-tool-refused-text = ランタイムが{ $whose } { $tool } を拒否します：{ $output }。モデルはエラーを読んで再試行できます。
cap-tool-returned-title = ツールの結果
cap-tool-returned-text = { $whose_start } { $tool } の結果：{ $output }。

cap-fault-rule = 障害ルール { $rule }
cap-fault-rule-any = ある障害ルール
cap-fault-dropped-title = 障害：破棄
cap-fault-dropped-text = { $by } が{ $to }への途中で{ $what }を破棄します：{ $whose_to }インボックスには決して届きません（×）。
cap-fault-dropped-response = トラッカーは遷移しましたが、リクエストした側がそのレスポンスを受け取ることはありません。
cap-fault-delayed-title = 障害：遅延
cap-fault-delayed-text = { $by } が{ $what }をバス上に { $ms } ms 留めます。{ $whose_to }インボックスには遅れて届きます。
cap-fault-duplicated-title = 障害：重複
cap-fault-duplicated-text = { $by } が{ $what }を複製します：{ $whose_to }インボックスに 2 回届きます。request_id を見れば、コピーが何も新しく答えていないことがわかります。
cap-fault-reordered-title = 障害：順序入れ替え
cap-fault-reordered-text = { $by } が、{ $to }への次のメッセージが配信されるまで{ $what }を留めるので、順序が入れ替わって届きます。それでも request_id によって、元のリクエストと対応づけられます。
cap-released-title = 保留メッセージの解放
cap-released-text = { $what_start }がついに{ $whose_to }インボックスに届きます（イベント #{ $held } から保留）。順序に関係なく request_id で照合されます。
cap-released-unknown = イベント #{ $held } で保留されたメッセージが受信者のインボックスに届きます。

cap-sent-copy = これは重複障害が作ったコピーです。
cap-sent-waits = { $to }が読むまで{ $whose_to }インボックスで待ちます。
cap-stale-answer = これは { $id } へのレスポンスですが、そのリクエストは{ $whose }再起動前の実行に宛てたものでした：再起動をまたいだ古いレスポンスです。
cap-sent-message-title = メッセージ送信
cap-sent-message-text = { $from_start }が{ $to }にメッセージを送ります：{ $content }。
cap-sent-broadcast-title = ブロードキャスト
cap-sent-broadcast-text = { $from_start }が{ $to }にブロードキャストします：{ $content }。
cap-sent-shutdown-request-title = shutdown_request 送信
cap-sent-shutdown-request-text = { $from_start }が request_id { $id } 付きの shutdown_request を{ $to }に送ります：{ $content }。
cap-sent-shutdown-response-title = shutdown_response 送信
cap-sent-shutdown-response-text = { $from_start }が shutdown_response（{ $approve }）で { $id } に答えます。request_id で相関します。
cap-sent-plan-request-title = plan_approval_request 送信
cap-sent-plan-request-text = { $from_start }がプランを request_id { $id } 付きの plan_approval_request として{ $to }に送ります。
cap-sent-plan-response-title = plan_approval_response 送信
cap-sent-plan-response-text = { $from_start }が plan_approval_response（{ $approve }）でプラン { $id } に答えます。request_id で相関します。

cap-tool-title = ツール：{ $tool }
cap-tool-spawn = { $who_start }が spawn_teammate を呼び、{ $name } を { $role } として起動します。
cap-tool-shutdown-request = { $who_start }が { $teammate } に対して shutdown_request を呼びます：ハンドラが request_id を作ってリクエストを送ります。
cap-tool-shutdown-approve = { $who_start }が shutdown_response を呼び、{ $id } を承認します。
cap-tool-shutdown-reject = { $who_start }が shutdown_response を呼び、{ $id } を拒否します。
cap-tool-shutdown-about = { $who_start }が { $id } について shutdown_response を呼びます。
cap-tool-plan-approve = { $who_start }が plan_approval を呼び、プラン { $id } を承認します（レビューモード、request_id 付き）。
cap-tool-plan-reject = { $who_start }が plan_approval を呼び、プラン { $id } を拒否します（レビューモード、request_id 付き）。
cap-tool-plan-submit = { $who_start }が plan_approval を呼んでプランを提出します（提出モード、request_id はまだありません）：{ $plan }。
cap-tool-read-inbox = { $who_start }が read_inbox を呼び、届いているメッセージを読みます。
cap-tool-send = { $who_start }が send_message を呼び、{ $to }にメッセージを書きます。
cap-tool-broadcast = { $who_start }が broadcast を呼び、チームメイト全員にメッセージを書きます。
cap-tool-list = { $who_start }が list_teammates を呼び、config.json で各チームメイトのステータスを見ます。
cap-tool-file = { $who_start }が { $path } に対して { $tool } を呼びます。
cap-tool-other = { $who_start }がツール { $tool } を呼びます。

# モデル呼び出しのコスト。単位はトークン。「≈」はスクリプトモデルの推定値。
cost-tokens = { $tokens } トークン
cost-tokens-priced = { $tokens } トークン · { $money }
cost-tokens-estimate = ≈{ $tokens } トークン（推定）
cost-in-out = 入力 { $input }、出力 { $output }
cost-cache = キャッシュ読み取り { $read }、書き込み { $write }
cost-call = 使用量：{ $usage }。
cost-call-priced = 使用量：{ $usage }（{ $money }）。
cost-call-estimate = 使用量 ≈ { $usage }（推定）。
cost-protocol-share = うち { $tokens } はプロトコルのハンドシェイク
cap-budget-reached-title = 予算に到達
cap-budget-reached-text = { $whose_start }次のモデル呼び出しは最大 { $expected }（プロンプトと、返答の max_tokens）を使う可能性があり、実行の予算 { $limit } を超えます（これまでの消費：{ $spent }）。実行は「停止」と同じくここで止まります：呼び出しは行われず、どのエージェントも続けません。
cap-budget-unpriced-text = 実行の予算は { $limit } ですが、価格表にこのモデルの価格がないため、呼び出しの費用がわかりません。{ $whose_start }モデル呼び出しは行われず、実行はここで止まります。
cost-budget-banner = 予算 { $limit } により、{ $who }の次のモデル呼び出し（最大 { $expected }）の前、イベント #{ $seq } で実行が止まりました（消費：{ $spent }）。
cost-budget-banner-unpriced = 予算 { $limit } により、{ $who }のモデル呼び出しの前、イベント #{ $seq } で実行が止まりました：価格表にこのモデルの価格がありません。
cap-file-request-text = { $requester_start } が { $protocol } プロトコルで { $addressee } に依頼します：リクエスト { $id } は { $status } です。
cap-file-answered-text = { $by_start } が { $protocol } リクエスト { $id } に答えます：{ $moved }。
cap-file-expired-text = { $protocol } リクエスト { $id } は期限までに誰も答えませんでした：{ $moved }（期限切れ）。
