# ページ (src/ui/*.rs): ヘッダー、コントロール、パネル、設定、ダイアログ。

# ヘッダー、ドロワー、ショートカット (src/ui/app.rs)
ui-skip-links = スキップリンク
ui-skip-controls = 再生コントロールへ移動
ui-skip-diagram = 図へ移動
ui-skip-setup = 実行のセットアップへ移動
ui-title = Team Protocols Playground
ui-tagline = リーダーとチームメイトがシャットダウンとプラン承認をやり取りする様子を観察します。状態機械は 1 つ、request_id で相関します。
ui-recorded-trace = （記録されたトレース）
ui-model = モデル：{ $label }
ui-shortcuts = キーボードショートカット
ui-presenter = プレゼンター
ui-presenter-title = プレゼンターモード：操作バー、キャプション、図が画面いっぱいに、会場から読める大きさで表示されます（P）
ui-presenter-leave-title = プレゼンターモードを終了（P または Esc）
ui-language = 言語
ui-drawer-setup = セットアップ
ui-drawer-panels = パネル
ui-drawer-setup-title = 実行のセットアップ
ui-drawer-panels-title = チームとプロトコル
ui-close-setup = 実行のセットアップを閉じる
ui-close-panels = パネルを閉じる
ui-close = 閉じる
ui-more = 続きを表示
ui-less = 折りたたむ
ui-said-open = 全文を読む：{ $said }
ui-said-title = リクエスト { $id } の { $field }（ステップ { $step }）
ui-key-space = 再生または一時停止
ui-key-left = 1 イベント戻る
ui-key-right = 次のイベント（ステップモードで末尾にいるときは、次のイベントを 1 つ解放）
ui-key-home = 最初のイベント
ui-key-end = 最新のイベント（実行を追う）
ui-key-updown = イベントログ、リクエスト、インボックスで：上または下の行（そこでは Home／End で最初／最後の行）
ui-key-help = このヘルプ
ui-key-esc = このヘルプまたは開いているパネルのドロワーを閉じる
ui-key-esc-tour = ガイドツアーを終了（ツアー中）
ui-key-presenter = プレゼンターモードの切り替え：操作バー、キャプション、図だけを大きく表示
ui-key-esc-presenter = プレゼンターモードを終了（ドロワーを閉じ、ツアーを終えた後）
ui-shortcuts-note = ショートカットは入力欄で入力中を除き、ページのどこでも使えます。フォーカスのあるボタンでスペースを押すと、そのボタンが押されます。
ui-model-failed = { $agent } のモデル呼び出しが失敗しました：{ $error }。設定のプロバイダ、キー、ベース URL を確認するか、オフラインのスクリプトモデルに切り替えてから、もう一度実行してください。
ui-dismiss = 閉じる

# リンク、クリップボード
ui-link-unknown-scenario = このリンクは、このバージョンにないシナリオを指しています：'{ $id }'
ui-link-bad = このリンクを開けませんでした：{ $error }。画面上の実行は変わりません
ui-copy-refused = ブラウザがコピーを拒否しました：リンクを選択して手動でコピーしてください。
ui-copy-none = このブラウザはここでクリップボードを使えません：リンクを選択して手動でコピーしてください。
ui-copying = コピー中…
ui-copied = リンクをコピーしました。

# プロンプトとシナリオ
ui-prompt-empty = エラー：まずリーダーへのプロンプトを入力するか、シナリオを選んでください
ui-prompt = プロンプト
ui-prompt-label = リーダーへのプロンプト
ui-prompt-placeholder = Spawn alice as a coder. Then request her shutdown.
ui-run-busy = 実行中です：終わるのを待つか、停止を押してください
ui-run = 実行
ui-new-team = 新しいチーム
ui-will-run = 実行するモデル：{ $provider }
ui-settings-changed = {" "}· 設定が変更されました：実行すると新しいチームになります
ui-fix-settings = {" "}· 設定を直してください：{ $why }
ui-scenarios = シナリオ

# 設定
ui-seed-bad = シード '{ $seed }' は 0 から 18446744073709551615 までの整数ではありません
ui-max-tokens-bad = 最大トークン数は 1 から { $limit } までの整数でなければなりません（'{ $value }' ではなく）
ui-settings = 設定
ui-provider = プロバイダ
ui-scripted-note = スクリプトモデルはこのタブでオフラインで動きます：シナリオを演じ、起きたことに反応するルールベースのポリシーです。言語モデルではありません。
ui-provider-note = リクエストはこのタブからサーバーへ直接送られます。チェックを入れない限りキーはメモリにだけ保持され、トレース、エクスポート、ログ、URL に入ることはありません。
ui-api-key = API キー
ui-base-url = ベース URL
ui-model-name = モデル
ui-max-tokens = 最大トークン数
ui-seed = シード
ui-remember-key = このデバイスに記憶
ui-settings-note = 実行、新しいチーム、シナリオは表示どおりの設定を使います。実行が画面上のチームを続けるのは、設定が変わっていない間だけです。

# トレースパネル: エクスポート、インポート、共有、保存した実行
ui-export-failed = { $format } のエクスポートに失敗しました：{ $error }
ui-error = エラー：{ $error }
ui-import-failed = エラー：{ $error }。何も変更していません。
ui-import-unreadable = エラー：ファイルを読めませんでした。何も変更していません。
ui-trace = トレース
ui-export-json = JSON をエクスポート
ui-export-mermaid = Mermaid をエクスポート
ui-export-svg = SVG をエクスポート（このフレーム）
ui-export-svg-run = SVG をエクスポート（実行全体）
ui-import = JSON トレースをインポート
ui-imported-note = 記録されたトレースを表示中：戻る、次へ、スクラバーで一歩ずつ見られます。実行すると新しいチームになります。
ui-save-run = 実行を保存
ui-share-link = 共有リンク
ui-copy = コピー
ui-clear-confirm = 保存した実行をすべて削除しますか？
ui-clear-yes = はい、すべて削除します
ui-cancel = キャンセル
ui-clear-saved = 保存した実行を消去
ui-saved-runs = 保存した実行
ui-delete-saved = 保存した実行 { $title } を削除
ui-delete = 削除

# バスの障害
ui-fault-delay-bad = 遅延 '{ $value }' はミリ秒の整数ではありません
ui-fault-probability-bad = 確率 '{ $value }' は 0 から 1 の数ではありません
ui-fault-not-added = { $error }。ルールは追加されませんでした
ui-faults = バスの障害
ui-faults-note = ルールはチームの開始時に適用されます（変更後の実行、新しいチーム、またはシナリオ）。判定はシードから決まるので、障害のある実行も正確に再現されます。
ui-fault-action = 動作
ui-fault-action-label = 障害の動作
ui-fault-delay = 遅延（ms）
ui-fault-delay-label = 障害の遅延（ミリ秒）
ui-fault-type = メッセージタイプ
ui-fault-type-label = 障害のメッセージタイプ
ui-fault-from = 送信者
ui-fault-from-label = 障害の送信者
ui-fault-to = 受信者
ui-fault-to-label = 障害の受信者
ui-fault-probability = 確率
ui-fault-probability-label = 障害の確率
ui-any = すべて
ui-fault-add = 障害ルールを追加
ui-fault-rules = 障害ルール
ui-fault-delay-ms = 遅延 { $ms } ms
ui-fault-rule = { $action } { $msg_type }、{ $from } から { $to } へ、p={ $p }
ui-fault-any-message = すべてのメッセージ
ui-fault-anyone = 誰でも
ui-fault-remove-label = ルールを削除：{ $rule }
ui-remove = 削除

# 再生コントロール
ui-controls = 再生コントロール
ui-mode = モード
ui-live = ライブ
ui-step = ステップ
ui-back-title = 1 イベント戻る（←）
ui-back = 戻る
ui-play-title = 再生または一時停止（スペース）
ui-pause = 一時停止
ui-play = 再生
ui-next-title = 次のイベント（→）
ui-next = 次へ
ui-scrub = イベントをたどる
ui-position-title = 表示したイベント / 記録されたイベント
ui-speed = 速度
ui-speed-title = ライブ実行と再生の速度：2× や 4× で速く、0.5× や 0.25× で読む時間を長く
ui-follow = 最新を追う
ui-stop = 停止
ui-next-up = 次：{ $events }

# キャプションボックス (src/ui/caption_box.rs)
ui-caption-heading = いま起きたこと
ui-caption-start = 開始
ui-caption-step = イベント { $number }
ui-legend = 凡例

# ページ上のガイドツアー (src/ui/tour_view.rs)
ui-tour-announce = ツアーのポイント { $n } / { $count }：{ $title }。{ $text }
ui-tours = ガイドツアー
ui-tours-note = シナリオを実行し、重要な場面で止まって、その理由を説明します。
ui-tour-title = ツアー：{ $title }
ui-tour-progress = ポイント { $n } / { $count }
ui-tour-waiting = シナリオを実行中です… 実行が終わるとツアーが始まります。
ui-tour-none = このツアーの場面は、この実行では 1 つも起きませんでした（別のモデルや障害ルールによって展開が変わりました）。ツアーを終了するか、スクリプトモデルでシナリオをもう一度実行してください。
ui-tour-skipped = ツアーの { $count } 個の場面のうち { $missing } 個はこの実行で起きなかったため、スキップしました。
ui-tour-previous = 前のポイント
ui-tour-next = 次のポイント
ui-tour-end = ツアーを終了
ui-tour-over-title = 実行が終わりました
ui-tour-over = これが実行の最後のイベント（ステップ { $len }）です。ツアーで見るべき場面はすべて見ました。「戻る」で実行をさかのぼるか、ツアーを終了してください。

# シナリオのタイトル（プロンプトはそのまま）
scenario-shutdown-title = グレースフルシャットダウン
scenario-list-after-shutdown-title = シャットダウン後のステータス
scenario-reject-plan-title = リスクの高いプランを拒否
scenario-approve-plan-title = プランを承認
scenario-reject-then-accept-title = 忙しいチームメイト：拒否してから承認
scenario-out-of-order-title = 2 つのリクエストに順不同でレスポンス
scenario-scale-title = 規模：チームメイト 50 人 × リクエスト 20 件

# 最初の画面 (src/ui/setup/start_card.rs) とセットアップ欄のタブ (src/ui/shell/drawers.rs)
ui-start-title = ここから始める
ui-start-lead = リーダーがチームメイトに停止を頼みます。ただのメッセージでは、彼女が本当に止まったか分かりません。プロトコルがあれば、どのリクエストにも request_id で対応づけられたレスポンスが返ります。
ui-start-tour = レッスンを始める：プロトコルなし、次にプロトコルあり
ui-start-scenarios = またはレッスンのシナリオを 1 つ実行
ui-start-tools = すべての実行の探索、障害の注入、実際のモデルの利用、トレースのインポートとエクスポート：
ui-start-tools-button = ツールを開く
ui-setup-tabs = 実行のセットアップの区分
ui-tab-learn = 学ぶ
ui-tab-tools = ツール
ui-tools = ツール
ui-tools-title = エンジニア向けツール：すべての実行の探索、バスの障害、モデルのプロバイダ、トレースのインポートとエクスポート

# ページに表示するシナリオのプロンプト（そのプロンプトを持つ最初のシナリオで命名。モデルには常に英語の原文を渡します）
scenario-shutdown-prompt-1 = alice をコーダーとして生成。次に彼女のシャットダウンをリクエスト。
scenario-list-after-shutdown-prompt-2 = チームメイトを一覧し、シャットダウン承認後の alice の状態を確認
scenario-reject-plan-prompt-1 = bob をリスクの高いリファクタリングのタスクで生成。彼のプランをレビューして拒否。
scenario-approve-plan-prompt-1 = charlie を生成し、プランを提出させてから承認。
scenario-reject-then-accept-prompt-1 = dave を生成して設定ファイル 3 つを移行させる。作業の途中で彼のシャットダウンをリクエストし、完了の報告が来たらもう一度リクエスト。
scenario-out-of-order-prompt-1 = erin にリリースノートを 2 部に分けて書かせ、frank を待機させて生成し、2 人のシャットダウンをリクエスト。レスポンスが順不同で届く様子を見る。
scenario-scale-prompt-1 = スケール：チームメイトを 50 人生成し、それぞれが同意するまでシャットダウンをリクエスト。各自 19 回拒否し、20 回目のリクエストを承認。
scenario-without-protocols-prompt-1 = alice をコーダーとして生成。次に彼女へメッセージを送る：「Hey alice, please stop.」
scenario-without-protocols-prompt-2 = では alice のシャットダウンをリクエスト。
scenario-twins-prompt-1 = alice と bob をどちらもコーダーとして生成。次に 2 人のシャットダウンをリクエスト。
scenario-respawn-prompt-2 = alice をコーダーとして生成。

# パネル (src/ui/panels.rs)
ui-check-title = プロトコルチェック（{ $count }）
ui-cut-findings = { $total } 件中 { $shown } 件の検出結果を表示
ui-check-ok = 違反なし：すべてのレスポンスが pending のリクエストの宛先から返され、そのリクエストと一致しました。
ui-check-at = {" "}#{ $seq }：{ $detail }
ui-team = チーム
ui-lead-stopped = リーダー · 停止済み
ui-lead-role = リーダー
ui-plan-mode = {" "}· プランモード
ui-requests = リクエスト
ui-no-replay = トレースを再生できません。
ui-no-requests = まだリクエストはありません。
ui-request-filter = リクエストを検索：id またはエージェント
ui-request-filter-label = id またはエージェントでリクエストを検索
ui-cut-requests = { $total } 件中 { $shown } 件のリクエストを表示
ui-latency = 待ち時間 { $latency }
ui-waiting = 待機中
ui-created-at = 作成 { $at } · { $latency }
ui-transition = { $from } → { $to }（{ $at }、{ $by } による）
ui-answer-label = { $id } に対する { $addressee } の { $field }
ui-answer-optional = { $field }（任意）
ui-approve-as = { $name } として承認
ui-reject = 拒否
ui-answer-form-label = { $addressee } として { $id } に回答
ui-answer-required = { $field } を入力してください：この回答に必要です。
ui-answer-whole-number = { $field } は 3 のような整数でなければなりません。
ui-answer-not-listed = { $field } は次のいずれかでなければなりません：{ $values }。
ui-answer-choose = 選択してください…
ui-answer-none = （なし）
ui-answer-not-sent = 何も送信されていません。入力した内容はそのまま残っています：
ui-inboxes = インボックス
ui-inbox-request = { $from } からの { $msg_type } [{ $id }]
ui-inbox-message = { $from } からの { $msg_type }：{ $content }
ui-inbox-unread = { $name }（未読 { $count } 件）
ui-and-more = … ほか { $count } 件
ui-download-failed = { $path } をダウンロードできませんでした：{ $error }
ui-workspace = ワークスペース
ui-no-files = まだファイルはありません。
ui-download-label = { $path } をダウンロード
ui-download = ダウンロード
ui-send-pick = エラー：送信者と受信者を選んでください
ui-send-title = 代理でメッセージを送信…
ui-from = 送信者
ui-to = 受信者
ui-message-text = メッセージ本文
ui-message-placeholder = メッセージ
ui-send = 送信
ui-log = イベントログ
ui-log-raw = 生のイベントを表示
ui-log-label = イベントログ（新しい順）

# メッセージ表
ui-fate-by-fault = 障害により
ui-fate-by-rule = 障害ルール { $rule } により
ui-fate-unread = 未読
ui-fate-read-at = #{ $seq } で既読
ui-fate-delivered = 配信済み、{ $read }
ui-fate-dropped = 破棄（{ $by }）
ui-fate-held = 保留中（{ $by }、{ $how }）、未到着
ui-fate-released = { $how }（{ $by }）、#{ $at } で到着、{ $read }
ui-fate-duplicate = 複製（{ $by }、これはコピー）、{ $read }
ui-fate-delayed = 遅延
ui-fate-reordered = 順序入れ替え

# 仕組み (src/ui/machinery_view.rs)
ui-machinery = 仕組み
ui-machinery-intro = 2 つのプロトコルで 1 つの状態機械を共有し、request_id をキーとするトラッカーが 2 つあります。名簿は config.json として示します。トラッカーの項目を選ぶと、その状態が FSM 上に表示されます。
ui-machinery-intro-file = ファイルのすべてのプロトコルで 1 つの状態機械を共有し、プロトコルごとに request_id をキーとするトラッカーが 1 つあります。名簿は config.json として示します。トラッカーの項目を選ぶと、その状態が FSM 上に表示されます。
ui-trackers = トラッカー
ui-fsm-label = 唯一の状態機械、pending → approved | rejected、リクエスト { $id } を表示中：{ $state }
ui-fsm-label-empty = 唯一の状態機械、pending → approved | rejected。まだリクエストはありません
ui-fsm-empty = まだリクエストはありません：リーダーの shutdown_request かチームメイトの plan_approval が pending のリクエストを作ります。
ui-fsm-last = { $fsm }（最後に更新されたリクエスト）
ui-tracker-label = { $name } トラッカー
ui-cut-members = { $total } 人中 { $shown } 人のチームメイトを表示
ui-cut-messages = { $total } 件中 { $shown } 件のメッセージを表示
ui-sentence = { $text }。
ui-messages-caption = これまでのメッセージ（新しい順）：ステップ { $shown } / { $len } の時点で { $total } 件。
ui-col-seq = 番号
ui-col-time = 時刻
ui-col-from = 送信者
ui-col-to = 受信者
ui-col-type = タイプ
ui-col-said = 内容
ui-col-fate = 配送状況
ui-no-messages = まだメッセージはありません。

# 図 (src/ui/diagram_view.rs)
ui-diagram-label = シーケンス図：エージェント { $agents } 人、メッセージ { $messages } 件、リクエスト { $requests } 件。イベント { $len } 件中 { $shown } 件を表示
ui-zoom-out = 縮小
ui-zoom-in = 拡大
ui-fit = 幅に合わせる
ui-diagram-region = 図（スクロール可）
ui-table-toggle = メッセージを表で表示
ui-zoom-group = 図のズーム
ui-fsm-moved = リクエスト { $id }（{ $kind }、{ $requester } → { $addressee }）：{ $from } → { $to }（{ $at }、{ $by } による）。
ui-fsm-waiting = リクエスト { $id }（{ $kind }、{ $requester } → { $addressee }）：{ $state }。{ $addressee } のレスポンスを待っています。
ui-run-cost = ここまでの実行：モデル呼び出し { $calls } 回、{ $spend }。
ui-budget = 実行ごとの予算
ui-budget-amount = 予算の額
ui-budget-unit = 予算の単位
ui-budget-none = なし
ui-budget-tokens = トークン
ui-budget-dollars = 米ドル
ui-budget-note = 各モデル呼び出しの前に、その呼び出しが使いうる最大量——プロンプト（約 4 文字で 1 トークン）と返答の max_tokens——をこれまでの消費に足し、予算を超えるなら呼び出しは行われず、実行は「停止」と同じく止まります。そのため実行が予算を超えて消費することはありません。ドル建ての予算には下のモデル価格が必要です。スクリプトモデルの数は推定で、価格はありません。
ui-budget-not-a-number = 予算 '{ $value }' は数値ではありません。トークン数（整数）かドルの額を書くか、予算なしなら空のままにしてください
ui-budget-not-positive = 予算はゼロより大きくなければなりません（予算なしなら空のままにしてください）
ui-budget-not-whole = トークンの予算は 50000 のような整数です
ui-budget-too-large = これほど大きな予算は何も制限しません。予算なしなら空のままにしてください
ui-prices = 価格（100 万トークンあたりの米ドル）
ui-prices-note = このブラウザーに保存されます。一覧にないモデルはトークン数だけを示し、価格は示しません。
ui-price-input = 入力
ui-price-output = 出力
ui-price-cache-read = キャッシュ読み取り
ui-price-cache-write = キャッシュ書き込み
ui-price-taken = 価格の取得日 { $date }
ui-price-remove = 削除
ui-price-model = モデル ID
ui-price-add = 価格を追加
ui-price-reset = 価格を既定値に戻す
ui-price-no-model = 価格にはモデルの ID が必要です（例：claude-sonnet-4-5）
ui-price-not-a-number = { $field }の価格 '{ $value }' は 100 万トークンあたりのドルの数値ではありません
ui-price-out-of-range = { $field }の価格は 100 万トークンあたり 0 から 1000 ドルの間でなければなりません
ui-price-bad-date = 価格の取得日は 2026-11-27 のように YYYY-MM-DD で書いてください
